import { PhpFloat, Unknown, type Value } from './values';

/** PHP's own constants that route and constants files use. */
export const PHP_CONSTANTS: ReadonlyMap<string, Value> = new Map<string, Value>([
  ['PHP_EOL', '\n'],
  // 64-bit integers past ±2^53 are not evaluated exactly: unknown rather than off by thousands.
  ['PHP_INT_MAX', new Unknown('PHP_INT_MAX (9223372036854775807) is beyond the integers evaluated exactly (±2^53)')],
  ['PHP_INT_MIN', new Unknown('PHP_INT_MIN (-9223372036854775808) is beyond the integers evaluated exactly (±2^53)')],
  ['PHP_INT_SIZE', 8],
  ['PHP_FLOAT_EPSILON', new PhpFloat(Number.EPSILON)],
  // PHP_VERSION, PHP_MAJOR_VERSION and PHP_MINOR_VERSION follow the version evaluated under (see phpVersionConstants).
  ['PHP_OS', 'Linux'],
  ['PHP_OS_FAMILY', 'Linux'],
  ['DIRECTORY_SEPARATOR', '/'],
  ['PATH_SEPARATOR', ':'],
  ['E_ALL', 32767],
  ['E_ERROR', 1],
  ['E_WARNING', 2],
  ['E_NOTICE', 8],
  ['E_STRICT', 2048],
  ['E_DEPRECATED', 8192],
  ['CASE_LOWER', 0],
  ['CASE_UPPER', 1],
  ['ARRAY_FILTER_USE_BOTH', 1],
  ['ARRAY_FILTER_USE_KEY', 2],
  ['STR_PAD_LEFT', 0],
  ['STR_PAD_RIGHT', 1],
  ['STR_PAD_BOTH', 2],
  // glob()'s flags as PHP defines them on Linux (glibc's values).
  ['GLOB_MARK', 2],
  ['GLOB_NOSORT', 4],
  ['GLOB_NOCHECK', 16],
  ['GLOB_NOESCAPE', 64],
  ['GLOB_ERR', 1],
  ['GLOB_BRACE', 1024],
  ['GLOB_ONLYDIR', 8192],
  ['SCANDIR_SORT_ASCENDING', 0],
  ['SCANDIR_SORT_DESCENDING', 1],
  ['SCANDIR_SORT_NONE', 2],
  ['M_PI', new PhpFloat(Math.PI)],
]);

/** Why BASEPATH (the system/ folder) is unknown: a path built on it is CodeIgniter's own code (see Includes.include). */
export const SYSTEM_PATH_UNKNOWN = 'BASEPATH is set by CodeIgniter at runtime';

/**
 * Constants CodeIgniter's front controller always defines before routes.php runs; their values
 * depend on the installation, so they are defined but unknown unless the user gives them.
 */
export const FRAMEWORK_CONSTANTS: ReadonlyMap<string, Value> = new Map<string, Value>(
  ['BASEPATH', 'APPPATH', 'FCPATH', 'VIEWPATH', 'SYSDIR', 'SELF', 'ENVIRONMENT', 'CI_VERSION', 'EXT'].map((n) => [
    n,
    new Unknown(n === 'BASEPATH' ? SYSTEM_PATH_UNKNOWN : `${n} is set by CodeIgniter at runtime`),
  ]),
);

/** The version constants of the PHP version evaluated under (its release is not known). */
export function phpVersionConstant(name: string, version: { major: number; minor: number }): Value | undefined {
  if (name === 'PHP_MAJOR_VERSION') return version.major;
  if (name === 'PHP_MINOR_VERSION') return version.minor;
  if (name === 'PHP_VERSION') return new Unknown(`PHP_VERSION: ${version.major}.${version.minor}.x, the release is not known`);
  return undefined;
}
