import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  DefinitionRequest,
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
  HoverRequest,
  ReferencesRequest,
  type Hover,
  type Location,
  type Range,
} from 'vscode-languageserver-protocol/node';
import { LspClient } from '../helpers/lsp-client';
import { EXAMPLE_APP } from '../helpers/paths';

const ROUTES = path.join(EXAMPLE_APP, 'application', 'config', 'routes.php');
const routesUri = pathToFileURL(ROUTES).toString();
const routesText = fs.readFileSync(ROUTES, 'utf8');
const controllerUri = pathToFileURL(path.join(EXAMPLE_APP, 'application', 'controllers', 'Users.php')).toString();
const controllerText = "<?php\nclass Users extends CI_Controller {\n    public function back() { redirect(Route::named('login')); }\n}\n";
/** On `login` inside Route::named('login') in the controller. */
const ON_LOGIN = { line: 2, character: 52 };
const DECLARATION = "'as' => 'login'";

function textIn(text: string, range: Range): string {
  const lines = text.split('\n');
  const offset = (p: Range['start']) => lines.slice(0, p.line).reduce((n, l) => n + l.length + 1, 0) + p.character;
  return text.slice(offset(range.start), offset(range.end));
}

function positionOf(text: string, needle: string, delta = 0): { line: number; character: number } {
  const lines = text.split('\n');
  const line = lines.findIndex((l) => l.includes(needle));
  assert.ok(line >= 0, `'${needle}' is in the text`);
  return { line, character: lines[line].indexOf(needle) + delta };
}

/** The texts (their indexes) in which the range reads what `expected` accepts (given the range's text, its line and its column). */
function versionsReading(texts: readonly string[], range: Range, expected: (s: string, line: string, column: number) => boolean): number[] {
  return texts.flatMap((t, i) => (expected(textIn(t, range), t.split('\n')[range.start.line] ?? '', range.start.character) ? [i] : []));
}

/** The declared name (quoted or not), not the route's pattern `'login'` on the same line. */
function onTheName(s: string, line: string, column: number): boolean {
  const at = line.indexOf(DECLARATION);
  return at >= 0 && column >= at + DECLARATION.indexOf("'login'") && (s === 'login' || s === "'login'");
}

/**
 * A server on the example app with routes.php and a controller using one of its names open, then
 * edits each followed at once by requests about the name.
 */
function editsAndRequests(initializationOptions: Record<string, unknown>): void {
  let client: LspClient;
  before(async () => {
    client = new LspClient();
    await client.initialize(EXAMPLE_APP, initializationOptions);
    await client.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: routesUri, languageId: 'php', version: 1, text: routesText } });
    await client.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: controllerUri, languageId: 'php', version: 1, text: controllerText } });
    await client.waitForDiagnostics(routesUri);
  });
  after(async () => {
    await client.shutdown();
  });

  const state = { text: routesText, version: 1 };
  type Answers = { definition: Location[] | null; hover: Hover | null; references: Location[] | null };
  const requests = {
    definition: () => client.connection.sendRequest(DefinitionRequest.type, { textDocument: { uri: controllerUri }, position: ON_LOGIN }) as Promise<Location[] | null>,
    hover: (text: string) => client.connection.sendRequest(HoverRequest.type, { textDocument: { uri: routesUri }, position: positionOf(text, DECLARATION, 10) }) as Promise<Hover | null>,
    references: () => client.connection.sendRequest(ReferencesRequest.type, { textDocument: { uri: controllerUri }, position: ON_LOGIN, context: { includeDeclaration: true } }) as Promise<Location[] | null>,
  };

  /** 30 edits, each inserting a line above the declaration, each followed at once by the three requests in `order`. */
  async function rounds(order: readonly (keyof Answers)[]): Promise<void> {
    for (let round = 1; round <= 30; round++) {
      const old = state.text;
      const line = positionOf(old, DECLARATION).line;
      const added = `// line ${round} added above the declaration`;
      const lines = old.split('\n');
      const text = (state.text = [...lines.slice(0, line), added, ...lines.slice(line)].join('\n'));
      const texts = [old, text];
      const change = { range: { start: { line, character: 0 }, end: { line, character: 0 } }, text: `${added}\n` };
      // Not awaited: the requests follow the edit at once, as an editor sends them.
      void client.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri: routesUri, version: ++state.version }, contentChanges: [change] });
      const sent = order.map((k) => (k === 'hover' ? requests.hover(text) : requests[k]()));
      const got = await Promise.all(sent);
      const answers = Object.fromEntries(order.map((k, i) => [k, got[i]])) as Answers;
      const { definition, hover, references } = answers;
      const at = `round ${round} (${order.join(', ')})`;

      assert.equal(definition?.length, 1, `${at}: one definition`);
      assert.equal(definition[0].uri, routesUri, at);
      assert.notDeepEqual(versionsReading(texts, definition[0].range, (s, l, c) => s === "'login'" && onTheName(s, l, c)), [], `${at}: the definition reads 'login' in one version, got ${JSON.stringify(definition[0].range)}`);

      // The hover is the declaration's: its range is the call's method, on the declaration's line.
      assert.ok(hover?.range, `${at}: the hover has a range`);
      assert.notDeepEqual(versionsReading(texts, hover.range, (s, l) => s === 'any' && l.includes(DECLARATION)), [], `${at}: the hover's range covers the call in one version, got ${JSON.stringify(hover.range)}`);

      const inRoutes = (references ?? []).filter((l) => l.uri === routesUri);
      assert.equal(inRoutes.length, 1, `${at}: the declaration is among the references: ${JSON.stringify(references)}`);
      // Every location in routes.php read in one and the same version.
      const common = inRoutes
        .map((l) => versionsReading(texts, l.range, onTheName))
        .reduce((a, b) => a.filter((i) => b.includes(i)));
      assert.notDeepEqual(common, [], `${at}: the references read 'login' in one version: ${JSON.stringify(inRoutes.map((l) => l.range))}`);
      const inController = (references ?? []).filter((l) => l.uri === controllerUri);
      assert.deepEqual(inController.map((l) => textIn(controllerText, l.range).includes('login')), [true], `${at}: the use in the controller`);
    }
  }

  it('definition, hover then references, after each of 30 edits inserting a line above the declaration', async () => {
    await rounds(['definition', 'hover', 'references']);
  });

  it('references first (no request has evaluated the edit yet), after each of 30 more edits', async () => {
    await rounds(['references', 'definition', 'hover']);
  });
}

describe('language server: requests sent right behind an edit answer for one version of the text', function () {
  this.timeout(120_000);
  // Default settings: the edit's analysis waits for its debounce while the requests come in.
  editsAndRequests({});
});

describe('language server: requests between the slices of an edit\'s analysis answer for one version of the text', function () {
  this.timeout(120_000);
  // No debounce: each edit's analysis starts at once, and the requests come between its slices.
  editsAndRequests({ debounceMs: 0 });
});

describe('language server: references into an open route file an edit took over ciRoutes.maxFileSize', function () {
  this.timeout(60_000);
  let client: LspClient;
  before(async () => {
    client = new LspClient();
    client.settings = { maxFileSize: routesText.length + 10 };
    await client.initialize(EXAMPLE_APP, {});
    await client.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: routesUri, languageId: 'php', version: 1, text: routesText } });
    await client.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: controllerUri, languageId: 'php', version: 1, text: controllerText } });
    await client.waitForDiagnostics(routesUri);
  });
  after(async () => {
    await client.shutdown();
  });

  it('places the declaration in the text last evaluated, not in the new one', async () => {
    const line = positionOf(routesText, DECLARATION).line;
    // Shorter than the declaration's column: its place in one text is not its place in the other.
    const added = '// a line above the declaration\n';
    const lines = routesText.split('\n');
    const text = [...lines.slice(0, line), added.slice(0, -1), ...lines.slice(line)].join('\n');
    await client.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri: routesUri, version: 2 }, contentChanges: [{ range: { start: { line, character: 0 }, end: { line, character: 0 } }, text: added }] });
    const references = (await client.connection.sendRequest(ReferencesRequest.type, { textDocument: { uri: controllerUri }, position: ON_LOGIN, context: { includeDeclaration: true } })) as Location[] | null;
    const inRoutes = (references ?? []).filter((l) => l.uri === routesUri);
    assert.equal(inRoutes.length, 1, JSON.stringify(references));
    assert.deepEqual(versionsReading([routesText, text], inRoutes[0].range, onTheName), [0], JSON.stringify(inRoutes[0].range));
  });

  it('refuses to rename there (its edits would land elsewhere in the new text)', async () => {
    await assert.rejects(
      client.connection.sendRequest('textDocument/rename', { textDocument: { uri: controllerUri }, position: ON_LOGIN, newName: 'sign_in' }),
      (e: Error) => /routes\.php is not analysed at its current text \(over ciRoutes\.maxFileSize\)/.test(e.message),
    );
  });
});
