import * as path from 'node:path';
import { RE2JS } from 're2js';
import type { ProjectFiles } from './project-files';

/** The largest config.php read for its url_suffix line (CodeIgniter's is about 20 KB). */
export const MAX_CONFIG_FILE_BYTES = 256 * 1024;

// RE2 matches in time linear in the text: config.php is the workspace's, read as data. The
// assignment must start its line (a commented-out one does not), as CodeIgniter's config.php writes it.
const configItem = (name: string) => RE2JS.compile(`(?m)^[ \\t]*\\$config\\s*\\[\\s*['"]${name}['"]\\s*\\]\\s*=([^;\\n]*);`);
const URL_SUFFIX = configItem('url_suffix');
const CONTROLLER_SUFFIX = configItem('controller_suffix');
const PERMITTED_URI_CHARS = configItem('permitted_uri_chars');
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
  const { value, read, source } = literalConfigItem(URL_SUFFIX, appDir, environment, files);
  return source !== undefined ? { suffix: value, source } : { suffix: '', source: read ? 'not set in config/config.php' : NO_CONFIG_FILE };
}

/**
 * `$config['controller_suffix']`, which Modular Extensions' router adds to controller file and
 * class names (MX_Router::locate(), set_class()): '' when config.php leaves it unset; undefined
 * when it sets it otherwise than to a literal, or when there is no config/config.php to read
 * (a repository that keeps only config.php.dist: the application's own is not known).
 */
/** The source of a config item when the application has no config/config.php to read. */
export const NO_CONFIG_FILE = 'no config/config.php';

export function controllerSuffixOf(appDir: string, environment: string | undefined, files: ProjectFiles): UrlSuffixChoice {
  const { value, read, source } = literalConfigItem(CONTROLLER_SUFFIX, appDir, environment, files);
  return source !== undefined ? { suffix: value, source } : read ? { suffix: '', source: 'not set in config/config.php' } : { suffix: undefined, source: NO_CONFIG_FILE };
}

/** `$config['permitted_uri_chars']` as read: see permittedUriCharsOf. */
export interface PermittedUriChars {
  chars: string | undefined;
  source: string;
  set: boolean;
}

/**
 * `$config['permitted_uri_chars']` as get_config() leaves it (`chars` undefined: set otherwise
 * than to a literal), with where it comes from: `set` false when config.php does not set it
 * (CI_URI then filters nothing); undefined when there is no config/config.php to read (an
 * environment's config.php alone sets what it sets over it).
 */
export function permittedUriCharsOf(appDir: string, environment: string | undefined, files: ProjectFiles): PermittedUriChars | undefined {
  const { value, readMain, source } = literalConfigItem(PERMITTED_URI_CHARS, appDir, environment, files);
  if (source !== undefined) return { chars: value, source, set: true };
  // CodeIgniter refuses to run without config/config.php: without it (an environment's alone), the application's own is not known.
  return readMain ? { chars: undefined, source: 'config/config.php does not set permitted_uri_chars', set: false } : undefined;
}

/** config.php, then the environment's over it (see literalConfigItem). */
function configFiles(environment: string | undefined): string[] {
  return ['config/config.php', ...(environment !== undefined && /^[A-Za-z0-9_.-]+$/.test(environment) && environment !== '.' && environment !== '..' ? [`config/${environment}/config.php`] : [])];
}

/**
 * A `$config[...]` item as get_config() leaves it: `<app>/config/config.php`, then the
 * environment's `config/<environment>/config.php` over it when there; the last literal
 * assignment wins. Read as text, never run. `source` is undefined when no file sets it; `readMain`
 * tells whether `config/config.php` itself was read.
 */
function literalConfigItem(item: RE2JS, appDir: string, environment: string | undefined, files: ProjectFiles): { value: string | undefined; read: boolean; readMain: boolean; source: string | undefined } {
  const rels = configFiles(environment);
  let found: { value: string | undefined; source: string } | undefined;
  let read = false;
  let readMain = false;
  for (const [i, rel] of rels.entries()) {
    const text = files.read(path.join(appDir, ...rel.split('/')), MAX_CONFIG_FILE_BYTES);
    if (text === undefined) continue;
    read = true;
    if (i === 0) readMain = true;
    const assignment = item.matcher(text);
    while (assignment.find()) {
      const value = literalOf(assignment.group(1) ?? '');
      found = { value, source: value === undefined ? `${rel} sets it otherwise than to a literal` : rel };
    }
  }
  return { value: found?.value, read, readMain, source: found?.source };
}

/** `$config['modules_locations'] = …;`, the value possibly over several lines (an array), as it starts its line. */
const MODULES_LOCATIONS = RE2JS.compile(`(?m)^[ \\t]*\\$config\\s*\\[\\s*['"]modules_locations['"]\\s*\\]\\s*=([^;]*);`);
/** A locations array as written, spaces and quotes set aside, to compare with DEFAULT_LOCATIONS. */
function locationsText(written: string): string {
  return written.replace(/\s+/g, '').replace(/"/g, "'").replace(/,(?=[)\]]$)/, '');
}

/**
 * Modular Extensions' own locations, as a config.php may restate them: `realpath(APPPATH)` is the
 * application folder without its trailing slash, so `realpath(APPPATH).'/modules/'` is the same folder.
 */
const DEFAULT_LOCATIONS = new Set(["array(APPPATH.'modules/'=>'../modules/')", "[APPPATH.'modules/'=>'../modules/']", "array(realpath(APPPATH).'/modules/'=>'../modules/')", "[realpath(APPPATH).'/modules/'=>'../modules/']"]);

/**
 * Where config.php (or the environment's) sets Modular Extensions' `modules_locations` to other
 * folders than its own `application/modules/`, or the application's Modules.php changes that
 * default (`config/config.php sets modules_locations`); undefined when neither does. Modules::$locations
 * then comes from it: the router model, which knows that one folder, does not follow it.
 */
export function modulesLocationsSet(appDir: string, environment: string | undefined, files: ProjectFiles): string | undefined {
  let source: string | undefined;
  const scan = (text: string, said: string) => {
    const assignment = MODULES_LOCATIONS.matcher(text);
    while (assignment.find()) {
      const value = locationsText(assignment.group(1) ?? '');
      source = DEFAULT_LOCATIONS.has(value) ? undefined : said;
    }
  };
  for (const rel of configFiles(environment)) {
    const text = files.read(path.join(appDir, ...rel.split('/')), MAX_CONFIG_FILE_BYTES);
    if (text === undefined) continue;
    scan(text, `${rel} sets modules_locations`);
    // A file it includes from the application folder (`require_once(APPPATH.'config/application.php')`) sets it too.
    for (const included of configIncludes(text).slice(0, MAX_CONFIG_INCLUDES)) {
      const more = files.read(path.join(appDir, ...included.split('/')), MAX_CONFIG_FILE_BYTES);
      if (more !== undefined) scan(more, `${rel} includes ${included}, which sets modules_locations`);
    }
  }
  if (source !== undefined) return source;
  return modulesDefaultChanged(appDir, files);
}

/** `include`/`require` (`_once`) of `APPPATH . 'literal'` in a config file: the path from the application folder. */
const CONFIG_INCLUDE = RE2JS.compile(`(?i)\\b(?:include|require)(?:_once)?\\s*\\(?\\s*APPPATH\\s*\\.\\s*['"]([A-Za-z0-9_./-]+\\.php)['"]`);
const MAX_CONFIG_INCLUDES = 4;

function configIncludes(text: string): string[] {
  const out: string[] = [];
  const found = CONFIG_INCLUDE.matcher(text);
  while (found.find()) {
    const rel = found.group(1) ?? '';
    if (!rel.split('/').includes('..')) out.push(rel.replace(/^\.\//, ''));
  }
  return out;
}

// `… OR Modules::$locations = array(APPPATH.'modules/' => '../modules/');`: the default Modules.php gives when config.php sets none.
const MODULES_DEFAULT = RE2JS.compile(`(?i)\\bor\\s+(?:MX_)?Modules::\\$locations\\s*=([^;]*);`);
const MX_MODULES = 'third_party/MX/Modules.php';

/**
 * Where the application's copy of Modular Extensions' Modules.php changes the default locations it
 * gives without a `modules_locations` (a CMS keeping its modules elsewhere); undefined when it keeps
 * MX's own, or says nothing the analysis can read.
 */
function modulesDefaultChanged(appDir: string, files: ProjectFiles): string | undefined {
  const text = files.read(path.join(appDir, ...MX_MODULES.split('/')), MAX_CONFIG_FILE_BYTES * 4);
  if (text === undefined) return undefined;
  const found = MODULES_DEFAULT.matcher(text);
  if (!found.find()) return undefined;
  const value = locationsText(found.group(1) ?? '');
  return DEFAULT_LOCATIONS.has(value) ? undefined : `${MX_MODULES} sets the default modules_locations`;
}

