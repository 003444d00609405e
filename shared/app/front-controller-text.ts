import { RE2JS } from 're2js';

/** `$name = '<literal>';` at the start of a line of a front controller (its `$application_folder`, `$system_path`), if so written. */
export function literalSetting(text: string, name: 'application_folder' | 'system_path'): string | undefined {
  const m = (name === 'application_folder' ? APPLICATION_FOLDER : SYSTEM_PATH).matcher(text);
  return m.find() ? m.group(1)! : undefined;
}

// RE2: linear in the file's length (the file is the workspace's); a commented-out line does not start with `$`.
const APPLICATION_FOLDER = RE2JS.compile(`^[ \\t]*\\$application_folder\\s*=\\s*['"]([^'"\\\\$]*)['"]\\s*;`, RE2JS.MULTILINE);
const SYSTEM_PATH = RE2JS.compile(`^[ \\t]*\\$system_path\\s*=\\s*['"]([^'"\\\\$]*)['"]\\s*;`, RE2JS.MULTILINE);
