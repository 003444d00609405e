import type { TextDocumentContentChangeEvent } from 'vscode-languageserver-protocol';
import { TextDocument } from 'vscode-languageserver-textdocument';

/** Pieces of route files and PHP an editor's user types or deletes, whole or half. */
const TOKENS = [
  "Route::get('photos/(:num)', 'gallery/photos/show/$1');\n",
  "Route::any('x', 'y/z', array('as' => 'xy'));\n",
  "Route::resources('teams');\n",
  "Route::prefix('api', function () {\n",
  "Route::context('admin', array('home' => 'dash'));\n",
  "Route::block('admin/setup');\n",
  "Route::named('",
  "$route = Route::map($route);\n",
  "$route['default_controller'] = 'home';\n",
  'Route::',
  'get(',
  'post(',
  'resources(',
  'prefix(',
  'function () {',
  'function ($x) use ($y) { return $x; }',
  "array('constraint' => '(:num)')",
  "['as' => 'n', 'offset' => 1]",
  "'",
  '"',
  '(',
  ')',
  '{',
  '}',
  '[',
  ']',
  ';',
  ',',
  '=>',
  '.',
  '$',
  '$route',
  '\\',
  '(:any)',
  '(:num)',
  '$1',
  '/',
  '/*',
  '*/',
  '//',
  '#',
  '?>',
  '<?php ',
  '<<<EOT\n',
  "<<<'EOT'\n",
  'EOT;\n',
  'if (ENVIRONMENT === "dev") {',
  'foreach (array(1, 2) as $i) {',
  'while (true) {}',
  "define('SITE_AREA', 'admin');\n",
  '((a+)+)+$',
  '(?=x)',
  // Hostile work: huge strings and arrays from builtins, nested loops, counted repetitions in keys.
  "$s = str_repeat('ab', 600000);\n",
  "$s = str_pad('', 200000000);\n",
  '$s = strrev($s);',
  "$t = strtolower($s . $s);",
  "$p = explode('b', $s);\n",
  "$s = implode($s, range(1, 100000));\n",
  "$s = str_replace('a', $s, $s);\n",
  "$s = sprintf('%900000000s', $s);\n",
  '$a = array_merge($a, $a, $a);',
  '$a = [...$a, ...$a];',
  "$a = array_fill(0, 150000, $s);\n",
  'for ($i = 0; $i < 1000; $i++) { for ($j = 0; $j < 1000; $j++) { $t = $a == $a; } }\n',
  'foreach (range(1, 50000) as $i) {',
  "Route::get('((a{1,20}){1,20}){1,20}', 'c/m');\n",
  "Route::get('(.{1,40}){1,40}/(:any)', 'c/m');\n",
  '{1,20}',
  '\n',
  '\r\n',
  '    ',
  '\t',
  'é',
  '😀',
  '\u0000',
];

export interface Edit {
  changes: TextDocumentContentChangeEvent[];
}

/** `o` moved back so that it splits neither a surrogate pair nor a CRLF (editors never do). */
function settle(text: string, o: number): number {
  if (o <= 0 || o >= text.length) return Math.max(0, Math.min(o, text.length));
  const c = text.charCodeAt(o);
  if ((c >= 0xdc00 && c <= 0xdfff) || (c === 10 && text.charCodeAt(o - 1) === 13)) return o - 1;
  return o;
}

function randomText(rnd: () => number): string {
  if (rnd() < 0.75) return TOKENS[Math.floor(rnd() * TOKENS.length)];
  // Random characters: printable ASCII mostly, sometimes any BMP code point.
  let s = '';
  for (let n = 1 + Math.floor(rnd() * 6); n > 0; n--) {
    s += String.fromCharCode(rnd() < 0.9 ? 32 + Math.floor(rnd() * 95) : Math.floor(rnd() * 0xd7ff));
  }
  return s;
}

/**
 * One random edit of `doc` as an editor sends it: one to three incremental changes (each range in
 * terms of the text left by the previous one), or, when the text has grown past `maxLength`, a
 * whole-document replacement by `original`. Returns the changes and the document after them.
 */
export function randomEdit(doc: TextDocument, original: string, maxLength: number, rnd: () => number): { edit: Edit; next: TextDocument } {
  if (doc.getText().length > maxLength || rnd() < 0.002) {
    const change = { text: original };
    return { edit: { changes: [change] }, next: TextDocument.update(doc, [change], doc.version + 1) };
  }
  const changes: TextDocumentContentChangeEvent[] = [];
  let current = doc;
  for (let n = rnd() < 0.9 ? 1 : 2 + Math.floor(rnd() * 2); n > 0; n--) {
    const text = current.getText();
    const start = settle(text, Math.floor(rnd() * (text.length + 1)));
    const kind = rnd();
    let end = start;
    let insert = '';
    if (kind < 0.45) insert = randomText(rnd);
    else if (kind < 0.75) end = settle(text, start + 1 + Math.floor(rnd() * (rnd() < 0.9 ? 24 : 400)));
    else {
      end = settle(text, start + 1 + Math.floor(rnd() * 12));
      insert = randomText(rnd);
    }
    if (end < start) end = start;
    const change = { range: { start: current.positionAt(start), end: current.positionAt(end) }, text: insert };
    changes.push(change);
    current = TextDocument.update(current, [change], current.version);
  }
  const next = TextDocument.create(doc.uri, doc.languageId, doc.version + 1, current.getText());
  return { edit: { changes }, next };
}
