import type { PhpNode } from '../php/ast';
import { PhpFatal } from '../runtime/convert';
import { FRAMEWORK_CONSTANTS, PHP_CONSTANTS, phpVersionConstant } from '../runtime/constants';
import { DEFAULT_PHP_VERSION, isPhp8 } from '../runtime/php-version';
import { Unknown, type Value } from '../runtime/values';
import type { InterpreterCore } from './interpreter-core';

/* Constants and magic constants (`__FILE__`, `__LINE__`) as the running file reads them. */

export function magic(it: InterpreterCore, node: PhpNode): Value {
  switch (String(node.value).toUpperCase()) {
    case '__LINE__':
      return it.lineAt(it.span(node).start);
    case '__FILE__':
      return it.file;
    case '__DIR__':
      return it.file.includes('/') ? it.file.slice(0, it.file.lastIndexOf('/')) : '.';
    case '__FUNCTION__':
    case '__CLASS__':
    case '__METHOD__':
    case '__NAMESPACE__':
      return '';
    default:
      return new Unknown(`${node.value} is not evaluated`);
  }
}

export function constant(it: InterpreterCore, raw: string, node: PhpNode): Value {
  const name = raw.startsWith('\\') ? raw.slice(1) : raw;
  const lower = name.toLowerCase();
  if (lower === 'true') return true;
  if (lower === 'false') return false;
  if (lower === 'null') return null;
  const v = it.constants.get(name) ?? PHP_CONSTANTS.get(name) ?? FRAMEWORK_CONSTANTS.get(name) ?? phpVersionConstant(name, it.options.phpVersion ?? DEFAULT_PHP_VERSION);
  if (v !== undefined) return v;
  const php8 = isPhp8(it.options.phpVersion);
  if (it.options.constantsComplete) {
    if (php8) throw new PhpFatal('Error', `Undefined constant "${name}"`);
    it.warn(`Use of undefined constant ${name} - assumed '${name}' (this will throw an Error in a future version of PHP)`);
    return name;
  }
  return new Unknown(`constant ${name} is not defined in the routes file or config/constants.php`, it.span(node));
}

export function isDefined(it: InterpreterCore, name: string): boolean {
  const n = name.startsWith('\\') ? name.slice(1) : name;
  return it.constants.has(n) || PHP_CONSTANTS.has(n) || FRAMEWORK_CONSTANTS.has(n) || n === 'PHP_VERSION' || n === 'PHP_MAJOR_VERSION' || n === 'PHP_MINOR_VERSION';
}
