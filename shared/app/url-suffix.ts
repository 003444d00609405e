import * as path from 'node:path';
import { RE2JS } from 're2js';
import type { ProjectFiles } from './project-files';

/** The largest config.php read for its url_suffix line (CodeIgniter's is about 20 KB). */
export const MAX_CONFIG_FILE_BYTES = 256 * 1024;

// RE2 matches in time linear in the text: config.php is the workspace's, read as data. The
// assignment must start its line (a commented-out one does not), as CodeIgniter's config.php writes it.
const URL_SUFFIX = RE2JS.compile(`(?m)^[ \\t]*\\$config\\s*\\[\\s*['"]url_suffix['"]\\s*\\]\\s*=([^;\\n]*);`);
/** A single-quoted literal (`\\` and `\'` its only escapes), or a double-quoted one with no escape nor variable. */
const SINGLE_QUOTED = RE2JS.compile(`^\\s*'((?:[^'\\\\]|\\\\.)*)'\\s*$`);
const DOUBLE_QUOTED = RE2JS.compile(`^\\s*"([^"\\\\$]*)"\\s*$`);

/** The URL suffix CodeIgniter's URI class strips, and where it comes from (for messages). */
export interface UrlSuffixChoice {
  /** `.html`; '' for none; undefined when the file sets it to something that cannot be read statically. */
  suffix: string | undefined;
  source: string;
}

/** A literal's value; undefined for anything else. */
function literalOf(expression: string): string | undefined {
  const single = SINGLE_QUOTED.matcher(expression);
  if (single.find()) return (single.group(1) ?? '').replace(/\\([\\'])/g, '$1');
  const double = DOUBLE_QUOTED.matcher(expression);
  return double.find() ? (double.group(1) ?? '') : undefined;
}

/**
 * `$config['url_suffix']` as get_config() leaves it: `<app>/config/config.php`, then the
 * environment's `config/<environment>/config.php` over it when there; the last literal
 * assignment wins. CI_URI::_set_uri_string() strips it from the end of the URI string before
 * splitting it into segments. Read as text, never run.
 */
export function urlSuffixOf(appDir: string, environment: string | undefined, files: ProjectFiles): UrlSuffixChoice {
  const rels = ['config/config.php', ...(environment !== undefined && /^[A-Za-z0-9_.-]+$/.test(environment) && environment !== '.' && environment !== '..' ? [`config/${environment}/config.php`] : [])];
  let choice: UrlSuffixChoice | undefined;
  let read = false;
  for (const rel of rels) {
    const text = files.read(path.join(appDir, ...rel.split('/')), MAX_CONFIG_FILE_BYTES);
    if (text === undefined) continue;
    read = true;
    const assignment = URL_SUFFIX.matcher(text);
    while (assignment.find()) {
      const suffix = literalOf(assignment.group(1) ?? '');
      choice = { suffix, source: suffix === undefined ? `${rel} sets it otherwise than to a literal` : rel };
    }
  }
  return choice ?? { suffix: '', source: read ? 'not set in config/config.php' : 'no config/config.php' };
}
