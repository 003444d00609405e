import type { ProtocolLocation } from '../../shared/protocol/route-table';
import { controllerCall, type NotMatchedRoute, type TestUrlAnswer } from '../../shared/protocol/test-url';
import { htmlText as h } from '../../shared/util/escape';

/**
 * The Test URL panel's page, with no `vscode`: what `ciRoutes/testUrl` answered, as HTML for a
 * webview without scripts. Every piece of workspace text (keys, targets, file names, messages,
 * the typed URL) goes through htmlText; links are command URIs the panel allows
 * (`ciRoutes.openLocation` only), with their arguments percent-encoded JSON.
 */

/** The command the panel's links run: opens a file of the workspace at a position. */
export const OPEN_LOCATION_COMMAND = 'ciRoutes.openLocation';

export interface PageInput {
  method: string;
  url: string;
  /** The route file the request was routed with (its application's main file). */
  routeFile: string;
  result: TestUrlAnswer;
  /** A fresh random value for this page: the one style element carries it (the CSP allows nothing else). */
  nonce: string;
}

/** The link that opens a place (a file URI, 0-based line and character). */
export function openLocationHref(uri: string, line = 0, character = 0): string {
  return `command:${OPEN_LOCATION_COMMAND}?${encodeURIComponent(JSON.stringify([{ uri, line, character }]))}`;
}

/**
 * What `ciRoutes.openLocation` accepts from a panel link: a file URI and a position. Anything
 * else is refused (the link's arguments are the page's, and the page shows workspace text).
 */
export function locationArgument(arg: unknown): { uri: string; line: number; character: number } | undefined {
  if (typeof arg !== 'object' || arg === null) return undefined;
  const { uri, line, character } = arg as Record<string, unknown>;
  const position = (n: unknown) => typeof n === 'number' && Number.isInteger(n) && n >= 0 && n < 2 ** 31;
  if (typeof uri !== 'string' || !uri.startsWith('file:') || !position(line) || !position(character)) return undefined;
  return { uri, line: line as number, character: character as number };
}

/** The last folders of a file URI, readable. */
export function shortFile(uri: string, folders = 4): string {
  let p = uri.replace(/^file:\/\//, '');
  try {
    p = decodeURIComponent(p);
  } catch {
    // shown as sent
  }
  return p.split('/').slice(-folders).join('/');
}

/** A link to a declaration: `line 31` in the route file tested with, `modules/blog/config/routes.php:9` elsewhere. */
function placeLink(location: ProtocolLocation | undefined, routeFile: string): string {
  if (!location) return '';
  const { line, character } = location.range.start;
  const label = location.uri === routeFile ? `line ${line + 1}` : `${shortFile(location.uri)}:${line + 1}`;
  return `<a class="place" href="${h(openLocationHref(location.uri, line, character))}">${h(label)}</a>`;
}

function code(text: string): string {
  return `<code>${h(text)}</code>`;
}

/** The verdict: which controller serves the request, or the 404 page, an error, or what is not known. */
function verdict(r: TestUrlAnswer): { kind: 'ok' | 'notfound' | 'error' | 'unknown'; html: string } {
  if (r.error) return { kind: 'error', html: `The request ends in an error: ${code(r.error)}${r.uri_refused ? ` (why: ${h(r.uri_refused.why)})` : ''}` };
  if (r.unknown) return { kind: 'unknown', html: `Not known statically: ${h(r.unknown)}` };
  if (r.controller_file && r.class) {
    const call = controllerCall(r);
    const file = r.controllerUri ? `<a href="${h(openLocationHref(r.controllerUri))}">${h(r.controller_file)}</a>` : h(r.controller_file);
    return { kind: 'ok', html: `Served by ${code(call)} in ${file}` };
  }
  const why = r.controller && !r.controller.found ? r.controller.reason : r['404'] ? 'the 404 page' : 'no controller serves it';
  return { kind: 'notfound', html: `No controller: ${h(why)}` };
}

function row(label: string, value: string): string {
  return `<tr><th scope="row">${h(label)}</th><td>${value}</td></tr>`;
}

function mainRoute(r: TestUrlAnswer, routeFile: string): string {
  if (r.default_controller_route) return '<span class="muted">none: an empty URI goes to the default controller</span>';
  const key = r.main_matched_key ?? r.matched_key;
  if (!key) return '<span class="muted">none matches: the URI\'s segments are used as they are</span>';
  const target = r.main_target_segments ?? r.target_segments;
  return `${code(key)}${target ? ` → ${code(target.join('/'))}` : ''} ${placeLink(r.location, routeFile)}`;
}

function moduleRoute(r: TestUrlAnswer, routeFile: string): string | undefined {
  if (!r.flavour || r.flavour === 'ci') return undefined;
  if (!r.module_route) return r.unknown && !r.locate_calls?.length ? '<span class="muted">not known (see above)</span>' : '<span class="muted">none matches</span>';
  return `${code(r.module_route.key)} → ${code(r.module_route.value)} <span class="muted">(module ${h(r.module_route.module)})</span> ${placeLink(r.moduleLocation, routeFile)}`;
}

function controller(r: TestUrlAnswer): string {
  if (r.controller_file && r.class) {
    const open = r.controllerUri ? `<a href="${h(openLocationHref(r.controllerUri))}">${h(r.controller_file)}</a>` : h(r.controller_file);
    return `${code(controllerCall(r))} in ${open}`;
  }
  if (r.controller && !r.controller.found) return `<span class="muted">none: ${h(r.controller.reason)}</span>`;
  return '<span class="muted">none</span>';
}

const KIND_LABEL: Record<NotMatchedRoute['kind'], string> = {
  later: 'matches, later',
  method: 'other methods',
  verbs: 'skipped',
  invalid: 'never matches',
  pattern: 'does not match',
};

function misses(r: TestUrlAnswer, routeFile: string): string {
  const list = r.notMatched ?? [];
  // No table was tried: an empty URI (the default controller), or PHP stopped before routing.
  if (r.default_controller_route || r.tried === undefined) return '';
  const tried = `<p class="muted">CodeIgniter tried ${r.tried} route${r.tried === 1 ? '' : 's'} of the main table ${r.main_matched_key ? 'before the one that matched' : 'and none matched'}; below, those whose first segment is the URI's (or a pattern), and those that match it too.</p>`;
  if (list.length === 0) return `<h2>Why the other routes did not match</h2>${tried}<p class="muted">No other route comes close.</p>`;
  const items = list
    .map((m) => `<li class="miss ${m.kind}"><div class="head">${code(m.key)} <span class="tag">${h(KIND_LABEL[m.kind])}</span> ${placeLink(m.location, routeFile)}</div><div class="why">${h(m.reason)}</div></li>`)
    .join('');
  const more = r.notMatchedMore ? `<p class="muted">${r.notMatchedMore} more not shown.</p>` : '';
  return `<h2>Why the other routes did not match</h2>${tried}<ul class="misses">${items}</ul>${more}`;
}

function caveats(r: TestUrlAnswer): string {
  const items = [
    ...(r.limits ?? []).map((l) => `Not the whole file: ${h(l)}`),
    ...(r.orderUnsure ? [`Unsure: ${h(r.orderUnsure)}`] : []),
    ...(r.conditional ?? []).map((c) => `Unsure: ${h(c)}`),
    ...(r.unknownRoutes ?? []).map((u) => `A route that cannot be known statically may take this URI first: ${h(u)}`),
  ];
  return items.length ? `<h2>Caveats</h2><ul class="caveats">${items.map((i) => `<li>${i}</li>`).join('')}</ul>` : '';
}

const STYLE = `
body { font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); color: var(--vscode-foreground); background: var(--vscode-editor-background); padding: 0 20px 20px; line-height: 1.5; }
h1 { font-size: 1.5em; font-weight: 600; margin: 16px 0 4px; }
h1 .method { color: var(--vscode-textLink-foreground); margin-right: 0.4em; }
h2 { font-size: 1.1em; font-weight: 600; margin: 24px 0 8px; border-bottom: 1px solid var(--vscode-panel-border, rgba(128,128,128,.35)); padding-bottom: 4px; }
code { font-family: var(--vscode-editor-font-family); font-size: var(--vscode-editor-font-size); background: var(--vscode-textCodeBlock-background, rgba(128,128,128,.15)); padding: 1px 4px; border-radius: 3px; white-space: pre-wrap; overflow-wrap: anywhere; }
.verdict { overflow-wrap: anywhere; }
a { color: var(--vscode-textLink-foreground); text-decoration: none; overflow-wrap: anywhere; }
a:hover { text-decoration: underline; color: var(--vscode-textLink-activeForeground); }
.muted { color: var(--vscode-descriptionForeground); }
.sub { color: var(--vscode-descriptionForeground); margin: 0 0 12px; }
.verdict { padding: 10px 14px; border-radius: 4px; border-left: 4px solid; margin: 12px 0 8px; background: var(--vscode-textBlockQuote-background, rgba(128,128,128,.1)); }
.verdict.ok { border-color: var(--vscode-testing-iconPassed, #388a34); }
.verdict.notfound { border-color: var(--vscode-editorWarning-foreground, #cca700); }
.verdict.error { border-color: var(--vscode-editorError-foreground, #e51400); }
.verdict.unknown { border-color: var(--vscode-editorInfo-foreground, #1a85ff); }
table { border-collapse: collapse; }
table.facts th { text-align: left; font-weight: 600; padding: 4px 16px 4px 0; vertical-align: top; white-space: nowrap; color: var(--vscode-descriptionForeground); }
table.facts td { padding: 4px 0; }
ul.misses { list-style: none; padding: 0; margin: 0; }
li.miss { padding: 6px 0; border-bottom: 1px solid var(--vscode-panel-border, rgba(128,128,128,.2)); }
li.miss .why { margin-top: 2px; }
.tag { display: inline-block; font-size: 0.85em; padding: 0 6px; border-radius: 8px; background: var(--vscode-badge-background); color: var(--vscode-badge-foreground); margin: 0 4px; white-space: nowrap; }
a.place { white-space: nowrap; }
ul.caveats { padding-left: 20px; }
`;

/** The whole page: a strict CSP (nothing loads, no script runs; only its own style element applies). */
export function testUrlHtml(input: PageInput): string {
  const { method, url, result: r, nonce } = input;
  const path = `/${url.replace(/^\/+/, '')}`;
  const v = verdict(r);
  const module = moduleRoute(r, input.routeFile);
  const facts = [
    row('Main route', mainRoute(r, input.routeFile)),
    ...(module !== undefined ? [row('Module route', module)] : []),
    row('Target', r.main_target_segments ? code(r.main_target_segments.join('/')) : '<span class="muted">—</span>'),
    row('Module', r.module ? code(r.module) : '<span class="muted">—</span>'),
    row('Controller', controller(r)),
    ...(r.rsegments ? [row('Segments', code(r.rsegments.join('/')))] : []),
  ].join('');
  const router = r.flavour ? `router ${code(r.flavour)}${r.router_source ? ` <span class="muted">(${h(r.router_source)})</span>` : ''} · ` : '';
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'nonce-${h(nonce)}';">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${h(`Test URL: ${method} ${path}`)}</title>
<style nonce="${h(nonce)}">${STYLE}</style>
</head>
<body>
<h1><span class="method">${h(method)}</span>${h(path)}</h1>
<p class="sub">${router}routes of <a href="${h(openLocationHref(input.routeFile))}">${h(shortFile(input.routeFile))}</a></p>
<div class="verdict ${v.kind}">${v.html}</div>
${r.error && r.main_matched_key === undefined ? '' : `<table class="facts"><tbody>${facts}</tbody></table>`}
${misses(r, input.routeFile)}
${caveats(r)}
</body>
</html>`;
}
