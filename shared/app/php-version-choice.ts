import * as path from 'node:path';
import { DEFAULT_PHP_VERSION, formatPhpVersion, lowestAllowed, parsePhpVersion, type PhpVersion } from '../runtime/php-version';
import type { ProjectFiles } from './project-files';

/** The PHP version a file is evaluated under, and how it was chosen (for messages). */
export interface PhpVersionChoice {
  version: PhpVersion;
  source: string;
}

/** Largest composer.json read. */
const MAX_COMPOSER_BYTES = 1024 * 1024;

/**
 * The PHP version: the one asked for (ciRoutes.phpVersion, --php-version), else the lowest the
 * project's composer.json `require.php` allows, else DEFAULT_PHP_VERSION. A version asked for
 * that cannot be read is said, and the default used.
 */
export function choosePhpVersion(asked: string | undefined, required: () => string | undefined): PhpVersionChoice {
  if (asked !== undefined && asked !== '' && asked !== 'auto') {
    const version = parsePhpVersion(asked);
    if (version) return { version, source: 'given' };
    return { version: DEFAULT_PHP_VERSION, source: `default: '${asked}' is not a PHP version` };
  }
  const constraint = required();
  if (constraint !== undefined) {
    const version = lowestAllowed(constraint);
    if (version) return { version, source: `composer.json requires php ${constraint}` };
  }
  return { version: DEFAULT_PHP_VERSION, source: 'default' };
}

/** composer.json's `require.php`, when the project has one that says it. */
export function composerPhpRequirement(projectDir: string, files: ProjectFiles): string | undefined {
  const text = files.read(path.join(projectDir, 'composer.json'), MAX_COMPOSER_BYTES);
  if (text === undefined) return undefined;
  try {
    const json = JSON.parse(text) as { require?: Record<string, unknown> };
    const php = json?.require?.php;
    return typeof php === 'string' && php.length <= 100 ? php : undefined;
  } catch {
    return undefined;
  }
}

export function describePhpVersion(choice: PhpVersionChoice): string {
  return `php ${formatPhpVersion(choice.version)} (${choice.source})`;
}
