import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { marked } from 'marked';

/**
 * A payload for every sink: a command link, a tracking pixel, HTML, code-span and table breakers,
 * a line break, terminal sequences (window title, clipboard write, line erase, 8-bit CSI), a
 * right-to-left override and a bare URL. No `/`, `'` or `\`: it is written in single-quoted PHP
 * strings and in file names as it is.
 */
export const PAYLOAD =
  '[x](command:workbench.action.terminal.new?%5B%5D)!' +
  '[p](https:evil.example#p.png)<img src=x>`|\u001b]0;title\u0007\u001b]52;c;aGk=\u0007\u001b[2K\u009b2K\u202Eabc\n https:XX';

/** The same with slashes, where a route key or target may hold them (a bare URL, an image URL). */
export const PAYLOAD_WITH_SLASHES = `${PAYLOAD} ![i](https://evil.example/p.png) https://evil.example/track`;

export const HOSTILE_FILE = `v${PAYLOAD.replace(/\//g, '')}`;
export const HOSTILE_MODULE = `m${PAYLOAD.replace(/\//g, '').replace(/\n/g, '')}`;

export interface HostileApp {
  root: string;
  app: string;
  routes: string;
  routesText: string;
  view: string;
  viewText: string;
  controller: string;
  controllerText: string;
}

/** A temporary application whose route file, view, module and file names all carry the payload. */
export function makeHostileApp(): HostileApp {
  // The workspace folder's own name is hostile too: it is in every path shown.
  const root = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ci-routes-hostile-')), `w${HOSTILE_FILE}`);
  const app = path.join(root, 'application');
  for (const d of ['config', 'views', 'controllers', `modules/${HOSTILE_MODULE}/controllers`]) fs.mkdirSync(path.join(app, d), { recursive: true });
  const P = PAYLOAD;
  const S = PAYLOAD_WITH_SLASHES;
  const routesText = [
    '<?php',
    "$route['default_controller'] = 'welcome';",
    `Route::get('k${S}', 'welcome/${S}', array('as' => 'n${P}'));`,
    `Route::get('a/(:any)/(:num)', 'welcome/show/$1/$2', array('as' => 'a${P}', 'z${P}' => 1));`,
    `Route::post('k${S}', 'welcome/${S}');`,
    `Route::prefix('p${P}', function () {`,
    `    Route::any('q${P}', '${HOSTILE_MODULE}/x${P}');`,
    '});',
    `Route::resources('r${P}', array('controller' => 'c${P}'));`,
    `$u = Route::named('missing${P}');`,
    `$v = Route::named('n${P}');`,
    `$route['t${S}'] = 'nowhere/${S}';`,
    `$route['t${S}'] = 'welcome/index';`,
    `$route['b${P}'] = '';`,
    "$route = Route::map($route);",
    `$route['after${P}'] = 'welcome';`,
    `Route::get('late${P}', 'welcome/late');`,
    `throw new Exception('stop${P}');`,
    '',
  ].join('\n');
  const routes = path.join(app, 'config', 'routes.php');
  fs.writeFileSync(routes, routesText);
  const viewText = `<?php echo site_url(Route::named('missing${P}')); echo site_url(Route::named('n${P}')); echo Route::named('`;
  const view = path.join(app, 'views', `${HOSTILE_FILE}.php`);
  fs.writeFileSync(view, viewText);
  const controllerText = `<?php class Welcome extends CI_Controller { public function index() {} public function show($a, $b) {} public function late() {} }\n`;
  const controller = path.join(app, 'controllers', 'Welcome.php');
  fs.writeFileSync(controller, controllerText);
  fs.writeFileSync(path.join(app, 'modules', HOSTILE_MODULE, 'controllers', `${HOSTILE_MODULE}.php`), `<?php class X extends MX_Controller { public function index() {} }\n`);
  // A module's routes file: the route table lists it under the main file's routes.
  fs.mkdirSync(path.join(app, 'modules', HOSTILE_MODULE, 'config'), { recursive: true });
  fs.writeFileSync(path.join(app, 'modules', HOSTILE_MODULE, 'config', 'routes.php'), `<?php\n$route['${HOSTILE_MODULE}/m${S}'] = 'x${S}';\n`);
  return { root, app, routes, routesText, view, viewText, controller, controllerText };
}

/** The settings a hostile `.vscode/settings.json` could give: an unknown diagnostic code made of the payload. */
export const HOSTILE_SETTINGS = { diagnostics: { [`c${PAYLOAD}`]: 'off' }, dialect: `d${PAYLOAD}`, constants: { [`K${PAYLOAD}`]: {} } };

/** Characters no output may carry raw: C0 but tab and line feed, DEL, C1, separators, bidi. */
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/;
/** The same with tab and line feed: a one-line text (a label, a message, a terminal line's content). */
const RAW_CONTROL_OR_BREAK = /[\u0000-\u001f\u007f-\u009f\u061c\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/;

/** Around an offset of a long output, visibly (assertion messages are printed to a terminal too). */
function shortly(text: string, at: number): string {
  return JSON.stringify(text.slice(Math.max(0, at - 150), at + 150)).replace(/[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export function assertNoControls(text: string, where: string, lineBreaksAllowed = false): void {
  const m = (lineBreaksAllowed ? RAW_CONTROL : RAW_CONTROL_OR_BREAK).exec(text);
  if (m) assert.fail(`${where}: a raw U+${m[0].charCodeAt(0).toString(16).padStart(4, '0')} in ${shortly(text, m.index)}`);
}

/** VS Code's notification link parser. */
const NOTIFICATION_LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/i;

/** A notification or message box: no link can form, no control. */
export function assertPlainMessage(text: string, where: string): void {
  assert.doesNotMatch(text, NOTIFICATION_LINK, `${where}: a link in ${JSON.stringify(text)}`);
  assertNoControls(text, where, true);
}

/**
 * Markdown as VS Code renders it (marked, GFM): no image, no HTML from the workspace, no link but
 * to a file (the declaration links the features write), no control, no table row split by the payload.
 */
export function assertInertMarkdown(markdown: string, where: string): void {
  const html = marked.parse(markdown, { async: false, gfm: true }) as string;
  assert.doesNotMatch(html, /<img\b/i, `${where}: an image in ${JSON.stringify(markdown)}`);
  for (const m of html.matchAll(/<a\b[^>]*href="([^"]*)"/gi)) assert.match(m[1], /^file:\/\//, `${where}: a link to ${m[1]} in ${JSON.stringify(markdown)}`);
  assertNoControls(markdown, where, true);
  assert.doesNotMatch(markdown, /^ https:XX/m, `${where}: the payload's line break reached the Markdown`);
  for (const table of html.matchAll(/<table>([\s\S]*?)<\/table>/g)) {
    const counts = [...table[1].matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((r) => (r[1].match(/<t[dh]\b/g) ?? []).length);
    assert.ok(counts.every((c) => c === counts[0]), `${where}: a table row split (${counts.join(', ')} cells) in ${JSON.stringify(markdown)}`);
  }
}

/** Terminal output: only line feeds and, on a terminal, SGR colour sequences. */
export function assertTerminalSafe(output: string, where: string): void {
  assertNoControls(output.replace(/\u001b\[[0-9;]*m/g, ''), where, true);
  // A line feed may only end a line the CLI wrote: none from the payload (it would start with ' https:XX').
  const forged = /^ https:XX/m.exec(output);
  if (forged) assert.fail(`${where}: the payload's line break reached the output: ${shortly(output, forged.index)}`);
}

/** JSON output: parses, and carries none of the characters a terminal or a log would act on. */
export function assertSafeJson(output: string, where: string): void {
  assertNoControls(output, where, true);
  for (const line of output.split('\n').filter((l) => l.trim() !== '')) JSON.parse(line);
}
