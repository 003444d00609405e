import { RequestType0, type Connection } from 'vscode-languageserver';
import type { IndexStats, WorkspaceIndex } from './workspace-index';

/** `ciRoutes/indexStats`: what the workspace index holds (for tests and the curious; editors need not ask). */
export const IndexStatsRequest = new RequestType0<IndexStats, void>('ciRoutes/indexStats');

/** One log line about the index's memory, as `ciRoutes/indexStats` counts it. */
export function describeIndexStats(s: IndexStats): string {
  return `evaluations held: ${s.held} of ${s.routeFiles} route file(s), ${s.heldClosed} closed using ${s.heldClosedBytes} of ${s.budgetBytes} bytes of source; ${s.letGo} let go, ${s.rederived} evaluated again`;
}

export function registerIndexStats(connection: Connection, index: WorkspaceIndex): void {
  connection.onRequest(IndexStatsRequest, () => index.stats());
}
