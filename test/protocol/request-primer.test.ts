import * as assert from 'node:assert/strict';
import type { CancellationToken, Connection } from 'vscode-languageserver';
import { RequestPrimer } from '../../server/src/lsp/request-primer';
import { evaluateRouteFile } from '../../shared/evaluate/evaluate-file';
import { runSteps } from '../../shared/util/steps';

type Handler = (params: unknown, token: CancellationToken) => unknown;

/** A connection that keeps what is registered on it, as the real one dispatches to it. */
function fakeConnection() {
  const registered = new Map<string, Handler>();
  const connection = {
    onHover: (h: Handler) => registered.set('hover', h),
    onCompletion: (h: Handler) => registered.set('completion', h),
    onDefinition: (h: Handler) => registered.set('definition', h),
    onSignatureHelp: (h: Handler) => registered.set('signatureHelp', h),
  } as unknown as Connection;
  return { connection, registered };
}

const TEXT = `<?php
Route::get('about', 'pages/about', ['as' => 'about']);
$url = Route::named('about');
`;

describe('RequestPrimer', () => {
  function setUp() {
    const primer = new RequestPrimer();
    const { connection, registered } = fakeConnection();
    const asked: { kind: string; params: unknown; cancelled: boolean }[] = [];
    const wrapped = primer.capture(connection);
    for (const kind of ['Hover', 'Completion', 'Definition', 'SignatureHelp'] as const) {
      (wrapped[`on${kind}`] as (h: Handler) => void)((params, token) => {
        asked.push({ kind, params, cancelled: token.isCancellationRequested });
        if (kind === 'Definition') throw new Error('a failing handler');
        return null;
      });
    }
    return { primer, registered, asked };
  }

  it('asks hover, definition and completion once each, on the first declaration and in the first named() argument', () => {
    const { primer, asked } = setUp();
    assert.equal(primer.done, false);
    runSteps(primer.steps('file:///routes.php', TEXT, evaluateRouteFile(TEXT)));
    const textDocument = { uri: 'file:///routes.php' };
    assert.deepEqual(asked, [
      { kind: 'Hover', params: { textDocument, position: { line: 1, character: 7 } }, cancelled: false },
      { kind: 'Definition', params: { textDocument, position: { line: 2, character: 21 } }, cancelled: false },
      { kind: 'Completion', params: { textDocument, position: { line: 2, character: 21 } }, cancelled: false },
    ]);
    assert.equal(primer.done, true, 'a failing handler is primed all the same');
    runSteps(primer.steps('file:///routes.php', TEXT, evaluateRouteFile(TEXT)));
    assert.equal(asked.length, 3, 'once per process');
  });

  it('leaves alone a kind a client asked for, and registers every handler where it was registered', () => {
    const { primer, registered, asked } = setUp();
    registered.get('completion')!({ real: true }, { isCancellationRequested: false } as CancellationToken);
    registered.get('signatureHelp')!({ real: true }, { isCancellationRequested: false } as CancellationToken);
    runSteps(primer.steps('file:///routes.php', TEXT, evaluateRouteFile(TEXT)));
    assert.deepEqual(asked.map((a) => a.kind), ['Completion', 'SignatureHelp', 'Hover', 'Definition']);
    assert.equal(primer.done, true);
  });

  it("primes named('… in a view or controller apart: definition and completion, once", () => {
    const { primer, asked } = setUp();
    runSteps(primer.steps('file:///routes.php', TEXT, evaluateRouteFile(TEXT)));
    assert.equal(primer.done, true);
    assert.equal(primer.phpDone, false, "the route file's priming does not run the views' path");
    const position = { line: 4, character: 30 };
    runSteps(primer.phpSteps('file:///views/home.php', position));
    const textDocument = { uri: 'file:///views/home.php' };
    assert.deepEqual(asked.slice(3), [
      { kind: 'Definition', params: { textDocument, position }, cancelled: false },
      { kind: 'Completion', params: { textDocument, position }, cancelled: false },
    ]);
    assert.equal(primer.phpDone, true);
    runSteps(primer.phpSteps('file:///views/other.php', position));
    assert.equal(asked.length, 5, 'once per process');
  });

  it("leaves named('… in views alone for a kind a client asked for", () => {
    const { primer, registered, asked } = setUp();
    registered.get('completion')!({ real: true }, { isCancellationRequested: false } as CancellationToken);
    runSteps(primer.phpSteps('file:///views/home.php', { line: 0, character: 0 }));
    assert.deepEqual(asked.map((a) => a.kind), ['Completion', 'Definition']);
    assert.equal(primer.phpDone, true);
  });

  it('waits for a file with a declaration', () => {
    const { primer, asked } = setUp();
    const empty = '<?php\n$route["a"] = "b";\n';
    runSteps(primer.steps('file:///routes.php', empty, evaluateRouteFile(empty)));
    assert.deepEqual(asked, []);
    assert.equal(primer.done, false);
  });
});
