import { RequestType0, type Connection } from 'vscode-languageserver';

/**
 * `ciRoutes/ping`: the extension's heartbeat. The answer is made on the event loop like every
 * other message, so it comes only while the loop turns: a server stuck in one long computation
 * leaves it unanswered, and the client restarts it (client/src/heartbeat.ts).
 */
export const PingRequest = new RequestType0<{ alive: true }, void>('ciRoutes/ping');

/** Answers the heartbeat at once; nothing else is read or done. */
export function registerHeartbeat(connection: Connection): void {
  connection.onRequest(PingRequest, () => ({ alive: true }));
}
