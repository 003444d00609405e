import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import {
  CodeLensRequest,
  CompletionRequest,
  CompletionResolveRequest,
  DidOpenTextDocumentNotification,
  DocumentLinkRequest,
  DocumentSymbolRequest,
  HoverRequest,
  InlayHintRequest,
  ShowMessageNotification,
  ShowMessageRequest,
  SignatureHelpRequest,
  WorkspaceSymbolRequest,
  type CodeLens,
  type CompletionItem,
  type CompletionList,
  type DocumentLink,
  type DocumentSymbol,
  type Hover,
  type InlayHint,
  type MarkupContent,
  type SignatureHelp,
  type SymbolInformation,
} from 'vscode-languageserver-protocol/node';
import { buildTree, type RouteNode } from '../../client/src/routes-model';
import { OPEN_LOCATION_COMMAND, testUrlHtml } from '../../client/src/test-url-html';
import { testUrlLines, type TestUrlAnswer } from '../../client/src/test-url-message';
import type { WorkspaceRoutesResult } from '../../shared/protocol/workspace-routes';
import { LineIndex } from '../../shared/php/line-index';
import { LspClient } from '../helpers/lsp-client';
import { assertInertMarkdown, assertNoControls, assertPlainMessage, HOSTILE_MODULE, HOSTILE_SETTINGS, makeHostileApp, PAYLOAD, type HostileApp } from './hostile-workspace';

/** Markdown or plain text, as LSP carries documentation. */
function markdownOf(doc: string | MarkupContent | undefined): string {
  return doc === undefined ? '' : typeof doc === 'string' ? doc : doc.value;
}

describe('security: hostile workspace text reaches no editor feature raw', function () {
  this.timeout(120_000);
  let hostile: HostileApp;
  let client: LspClient;
  const messages: string[] = [];
  let routesUri: string;
  let viewUri: string;
  let controllerUri: string;
  /** How many outputs carried the payload (escaped): the test must see it to mean anything. */
  let carried = 0;
  const note = (text: string) => {
    if (text.includes('command:workbench') || text.includes('command\\:workbench')) carried++;
  };

  before(async () => {
    hostile = makeHostileApp();
    client = new LspClient();
    client.settings = HOSTILE_SETTINGS;
    client.connection.onNotification(ShowMessageNotification.type, (p) => void messages.push(p.message));
    // The settings warnings are notifications; message requests (which may carry actions) are read too.
    client.connection.onRequest(ShowMessageRequest.type, (p) => (messages.push(p.message), null));
    await client.initialize(hostile.root, { debounceMs: 0 }, { codeLens: {}, inlayHint: {}, documentSymbol: { hierarchicalDocumentSymbolSupport: true }, completion: { completionItem: { resolveSupport: { properties: ['documentation'] } } } });
    routesUri = pathToFileURL(hostile.routes).toString();
    viewUri = pathToFileURL(hostile.view).toString();
    controllerUri = pathToFileURL(hostile.controller).toString();
    for (const [uri, text] of [
      [routesUri, hostile.routesText],
      [viewUri, hostile.viewText],
      [controllerUri, hostile.controllerText],
    ]) {
      await client.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'php', version: 1, text } });
    }
    await client.waitForDiagnostics(routesUri, (p) => p.diagnostics.length > 0);
    await client.waitForDiagnostics(viewUri, (p) => p.diagnostics.length > 0, 30_000);
  });

  after(async () => {
    await client.shutdown();
    fs.rmSync(hostile.root, { recursive: true, force: true });
  });

  it('warns of the hostile settings without a link or a control', () => {
    assert.ok(messages.length > 0, 'the unknown setting key is warned of');
    for (const m of [...messages, ...client.logs]) {
      assertPlainMessage(m, 'window/showMessage or logMessage');
      note(m);
    }
  });

  it('publishes diagnostics, related information included, without a control', () => {
    for (const uri of [routesUri, viewUri]) {
      const last = client.publications(uri).at(-1)!;
      assert.ok(last.diagnostics.length > 0);
      for (const d of last.diagnostics) {
        const message = typeof d.message === 'string' ? d.message : d.message.value;
        assertNoControls(message, `diagnostic ${d.code}`);
        note(message);
        for (const r of d.relatedInformation ?? []) assertNoControls(r.message, `related information of ${d.code}`);
      }
    }
  });

  it('hovers every offset of the route file and every call of the view with inert Markdown', async () => {
    for (const [uri, text] of [
      [routesUri, hostile.routesText],
      [viewUri, hostile.viewText],
    ] as const) {
      const lines = new LineIndex(text);
      for (let offset = 0; offset <= text.length; offset++) {
        const hover = (await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: lines.position(offset) })) as Hover | null;
        if (!hover) continue;
        const md = markdownOf(hover.contents as MarkupContent);
        assertInertMarkdown(md, `hover at ${offset} of ${uri === routesUri ? 'routes.php' : 'the view'}`);
        note(md);
      }
    }
  });

  it('completes names, targets, options and methods with inert labels and documentation, resolved too', async () => {
    const places: [string, string, number][] = [
      [viewUri, hostile.viewText, hostile.viewText.length],
      [viewUri, hostile.viewText, hostile.viewText.indexOf("named('missing") + "named('".length],
    ];
    const routeLine = (needle: string, after: string) => {
      const at = hostile.routesText.indexOf(needle);
      assert.ok(at >= 0, needle);
      return at + needle.indexOf(after) + after.length;
    };
    places.push([routesUri, hostile.routesText, routeLine("Route::get('a/(:any)/(:num)', '", "', '")]);
    places.push([routesUri, hostile.routesText, routeLine("Route::get('a/(:any)/(:num)', 'welcome/", 'welcome/')]);
    places.push([routesUri, hostile.routesText, routeLine(`'${ 'q' }`, "'")]);
    places.push([routesUri, hostile.routesText, routeLine("array('as' => 'a", "array(")]);
    places.push([routesUri, hostile.routesText, routeLine("Route::named('n", "Route::named('")]);
    places.push([routesUri, hostile.routesText, routeLine('Route::get(', 'Route::')]);
    places.push([routesUri, hostile.routesText, routeLine("Route::get('a/(", "Route::get('a/(")]);
    let items = 0;
    for (const [uri, text, offset] of places) {
      const answer = (await client.connection.sendRequest(CompletionRequest.type, { textDocument: { uri }, position: new LineIndex(text).position(offset) })) as CompletionItem[] | CompletionList | null;
      const list = answer === null ? [] : Array.isArray(answer) ? answer : answer.items;
      for (const item of list) {
        items++;
        assertNoControls(item.label, 'completion label');
        assertNoControls(item.detail ?? '', 'completion detail');
        note(item.label);
        const resolved = (await client.connection.sendRequest(CompletionResolveRequest.type, item)) as CompletionItem;
        for (const doc of [item.documentation, resolved.documentation]) {
          const md = markdownOf(doc);
          assertInertMarkdown(md, `completion documentation of ${JSON.stringify(item.label)}`);
          note(md);
        }
      }
    }
    assert.ok(items > 0, 'completion offered something');
  });

  it('gives signature help inside every call with inert documentation', async () => {
    const lines = new LineIndex(hostile.routesText);
    for (let offset = 0; offset <= hostile.routesText.length; offset += 7) {
      const help = (await client.connection.sendRequest(SignatureHelpRequest.type, { textDocument: { uri: routesUri }, position: lines.position(offset) })) as SignatureHelp | null;
      for (const s of help?.signatures ?? []) {
        assertInertMarkdown(markdownOf(s.documentation), 'signature documentation');
        for (const p of s.parameters ?? []) assertInertMarkdown(markdownOf(p.documentation), 'parameter documentation');
      }
    }
  });

  it('titles code lenses, outlines, workspace symbols, inlay hints and link tooltips without a control', async () => {
    for (const uri of [routesUri, controllerUri]) {
      const lenses = ((await client.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } })) as CodeLens[] | null) ?? [];
      for (const l of lenses) {
        assertNoControls(l.command?.title ?? '', 'code lens title');
        note(l.command?.title ?? '');
      }
    }
    const walk = (symbols: DocumentSymbol[]): void => {
      for (const s of symbols) {
        assertNoControls(s.name, 'document symbol name');
        assertNoControls(s.detail ?? '', 'document symbol detail');
        note(s.name);
        walk(s.children ?? []);
      }
    };
    walk(((await client.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri: routesUri } })) as DocumentSymbol[] | null) ?? []);
    for (const query of ['', 'n', 'command']) {
      for (const s of ((await client.connection.sendRequest(WorkspaceSymbolRequest.type, { query })) as SymbolInformation[] | null) ?? []) {
        assertNoControls(s.name, 'workspace symbol name');
        assertNoControls(s.containerName ?? '', 'workspace symbol container');
        note(s.name);
      }
    }
    const hints = ((await client.connection.sendRequest(InlayHintRequest.type, { textDocument: { uri: routesUri }, range: { start: { line: 0, character: 0 }, end: { line: 1000, character: 0 } } })) as InlayHint[] | null) ?? [];
    for (const h of hints) assertNoControls(typeof h.label === 'string' ? h.label : h.label.map((p) => p.value).join(''), 'inlay hint');
    for (const l of ((await client.connection.sendRequest(DocumentLinkRequest.type, { textDocument: { uri: routesUri } })) as DocumentLink[] | null) ?? []) assertNoControls(l.tooltip ?? '', 'document link tooltip');
  });

  it('renders the routes explorer, the Test URL panel and its notification inertly', async () => {
    const routes = (await client.connection.sendRequest('ciRoutes/workspaceRoutes', {})) as WorkspaceRoutesResult;
    assert.ok(routes.applications.some((a) => a.files.some((f) => f.module === HOSTILE_MODULE)), 'the module routes file is in the explorer');
    for (const grouping of ['file', 'prefix'] as const) {
      for (const filter of ['', 'k', PAYLOAD.slice(0, 20)]) {
        const walk = (nodes: RouteNode[]): void => {
          for (const n of nodes) {
            // Tree labels, descriptions and tooltips are plain text: no control, no line break but the tooltip's own.
            assertNoControls(n.label, `explorer label (${grouping}, filter ${JSON.stringify(filter)})`);
            assertNoControls(n.description, 'explorer description');
            assertNoControls(n.tooltip, 'explorer tooltip', true);
            note(n.label + n.tooltip);
            walk(n.children ?? []);
          }
        };
        walk(buildTree(routes, { grouping, sort: 'uri', filter }));
      }
    }
    for (const [method, url] of [
      ['GET', `k${PAYLOAD}`],
      ['GET', 'a/1/2'],
      ['POST', 'nothing'],
      ['GET', `t${PAYLOAD}`],
    ]) {
      const answer = (await client.connection.sendRequest('ciRoutes/testUrl', { uri: routesUri, method, url })) as TestUrlAnswer;
      const lines = testUrlLines(method, url, answer);
      assertPlainMessage(lines.join('\n'), `Test URL ${method} ${JSON.stringify(url)}`);
      for (const line of lines) assertNoControls(line, 'Test URL line');
      note(lines.join('\n'));
      const html = testUrlHtml({ method, url, routeFile: routesUri, result: answer, nonce: 'n' });
      // The page's own markup only: no script, no element or attribute from the workspace, links to the one command.
      assert.doesNotMatch(html, /<script|\son\w+=|<img|<iframe|<a href="command:workbench/i, `Test URL page ${method} ${JSON.stringify(url)}`);
      for (const [, href] of html.matchAll(/href="([^"]*)"/g)) assert.ok(href!.startsWith(`command:${OPEN_LOCATION_COMMAND}?`), href);
      assertNoControls(html, 'Test URL page', true);
      note(html);
    }
  });

  it("refuses renames with messages that form no link and carry no control", async () => {
    const lines = new LineIndex(hostile.routesText);
    const at = hostile.routesText.indexOf("array('as' => 'n") + "array('as' => 'n".length;
    const position = lines.position(at);
    const refusals: string[] = [];
    for (const newName of [`a${PAYLOAD}`, "bad'name", '']) {
      const refusal = await client.connection.sendRequest('textDocument/rename', { textDocument: { uri: routesUri }, position, newName }).then(
        () => undefined,
        (e: Error) => e.message,
      );
      if (refusal === undefined) continue; // renamed: the edit is text for the document, not a message
      assertPlainMessage(refusal, `rename refusal for ${JSON.stringify(newName)}`);
      assertNoControls(refusal, 'rename refusal');
      note(refusal);
      refusals.push(refusal);
    }
    // The payload's quotes refuse it, and the refusal quotes it: what is checked above is hostile.
    assert.ok(refusals.some((r) => r.includes('command')), JSON.stringify(refusals));
  });

  it('saw the payload in what it checked', () => {
    assert.ok(carried > 20, `the payload reached ${carried} outputs`);
    assert.ok(client.alive, `the server is alive: ${client.stderr}`);
  });
});
