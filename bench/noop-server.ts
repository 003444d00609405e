import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { RequestTimings, RequestTimingsRequest } from '../server/src/lsp/request-timings';

/**
 * A language server that answers every hover with the same constant: the same libraries, transport
 * and runtime as ci-routes, and no work. Its round trips are the floor of any request's. It records
 * its handler's times as ci-routes does (ciRoutes/requestTimings), so that its slow round trips
 * can be split the same way.
 */
const connection = createConnection(ProposedFeatures.all);
const timings = new RequestTimings();
connection.onInitialize((params) => {
  timings.enabled = (params.initializationOptions as { requestTimings?: unknown } | undefined)?.requestTimings === true;
  return { capabilities: { hoverProvider: true } };
});
timings.timing(connection).onHover(() => ({ contents: { kind: 'markdown', value: '`Route::resources()` — 7 routes · GET POST PUT DELETE' } }));
connection.onRequest(RequestTimingsRequest, () => timings.take());
connection.listen();
