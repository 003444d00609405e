import * as fs from 'node:fs';
import * as path from 'node:path';
import * as fc from 'fast-check';
import { CONFORMANCE, EXAMPLE_APP } from '../../helpers/paths';

/** Real route files the edits start from: the conformance cases and the example application's. */
export function sourceFiles(): { file: string; text: string }[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.php')) found.push(p);
    }
  };
  walk(path.join(CONFORMANCE, 'cases'));
  found.push(path.join(EXAMPLE_APP, 'application', 'config', 'routes.php'));
  return found.map((file) => ({ file, text: fs.readFileSync(file, 'utf8') }));
}

/**
 * Fragments of PHP and of route files: what half-typed code is made of. Each one opens, closes or
 * breaks something the scanner, the parser or the interpreter must get through.
 */
export const FRAGMENTS = [
  "Route::get('", "Route::get(", "Route::any('x', 'c/m');", "Route::prefix('p', function () {", "Route::resources('photos');",
  "Route::named('", "Route::map($route)", "$route = ", "$route['a/(:num)'] = 'c/m/$1';", "array('as' => 'n')", "'as' => ",
  "'", '"', '`', '(', ')', '[', ']', '{', '}', ';', ',', '=>', '::', '->', '$', '$1', '\\', '#', '//', '/*', '*/', '#[',
  'function () {', 'function () use (&$f) {', 'fn() => ', 'array(', 'if (', 'else', 'endif;', 'foreach ($a as $b):', 'while (1) {',
  '<?php', '<?php ', '?>', '<?=', '<<<EOT\n', '\nEOT;\n', "<<<'EOT'\n", '(:any)', '(:num)', '(?<=a)', '\n', '\r\n', '\t', ' ', '{$', '${',
  '0x', '1e999', 'null', 'true', '__halt_compiler();', 'declare(ticks=1);', 'goto a;', 'a:', 'exit;', 'return;',
];

/** A fragment to insert: mostly PHP pieces, sometimes random characters (ASCII or any code point). */
export const fragment: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...FRAGMENTS) },
  { weight: 2, arbitrary: fc.string({ maxLength: 4 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 3 }) },
);

/**
 * One edit, its offset given as a natural number taken modulo the text's length + 1 when it is
 * applied (so an edit stays valid whatever the text has become). `undo` returns to the version
 * before the previous edit: the parser then sees statements it cached two versions ago.
 */
export type Edit =
  | { kind: 'insert'; at: number; text: string }
  | { kind: 'delete'; at: number; length: number }
  | { kind: 'replace'; at: number; length: number; text: string }
  | { kind: 'undo' };

export const edit: fc.Arbitrary<Edit> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), text: fragment }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 80 }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 12 }), text: fragment }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'undo' as const }) },
);

/** Applies an edit to the last version in `history` and returns the new text. */
export function applyEdit(history: readonly string[], e: Edit): string {
  const text = history[history.length - 1];
  if (e.kind === 'undo') return history.length > 1 ? history[history.length - 2] : text;
  const at = e.at % (text.length + 1);
  if (e.kind === 'insert') return text.slice(0, at) + e.text + text.slice(at);
  const end = Math.min(text.length, at + e.length);
  return text.slice(0, at) + (e.kind === 'replace' ? e.text : '') + text.slice(end);
}

/** Code that loops or recurses, for the termination property's token soups. */
export const LOOPS = [
  'while (true) {}', 'while (1) {', 'for (;;) {', 'do {', '} while (1);', 'for ($i = 0; ; $i++) {', 'foreach ([1, 2] as $x) {',
  '$f = function () use (&$f) { $f(); };', '$f();', 'function g() { return g(); }', 'g();', 'a: goto a;',
  "Route::prefix('a', function () {", "Route::get('a', 'b', function () { Route::get('c', 'd', function () {", '});', '$route[] = $route;',
];
