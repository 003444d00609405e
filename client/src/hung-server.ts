import * as vscode from 'vscode';
import { State, type LanguageClient } from 'vscode-languageclient/node';
import { Heartbeat, HEARTBEAT_POLICY, hungMessage, PING_METHOD } from './heartbeat';
import type { BackoffRestart } from './restart-policy';
import { stopProcess } from './stop-process';

/**
 * Watches the server with the heartbeat while it starts or runs; one that stops answering is told
 * to the user, its process killed, and the restart left to BackoffRestart (the same back-off and
 * the same limit as after a crash).
 */
export function watchForHungServer(client: LanguageClient, restarts: BackoffRestart, output: vscode.LogOutputChannel): vscode.Disposable {
  const heartbeat = new Heartbeat(
    () => client.sendRequest(PING_METHOD),
    () => {
      const message = hungMessage(HEARTBEAT_POLICY);
      output.error(message);
      void vscode.window.showWarningMessage(message);
      const child = client.serverProcess;
      if (!child) {
        // Not started by this client as a child process: ask the client to restart it.
        output.warn('the server process is not known; restarting through the client');
        void client.restart().catch((e: unknown) => output.error(`restarting the server failed: ${String(e)}`));
        return;
      }
      restarts.expectClose('stopped answering and was killed');
      void stopProcess(child);
    },
    HEARTBEAT_POLICY,
  );
  // A server being debugged is silent at every breakpoint: it is not watched.
  const watched = (state: State) => !client.isInDebugMode && (state === State.Starting || state === State.Running);
  const listener = client.onDidChangeState((e) => {
    if (watched(e.newState)) heartbeat.start();
    else heartbeat.stop();
  });
  if (watched(client.state)) heartbeat.start();
  return { dispose: () => (listener.dispose(), heartbeat.stop()) };
}
