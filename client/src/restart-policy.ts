import { CloseAction, ErrorAction, type CloseHandlerResult, type ErrorHandler, type ErrorHandlerResult, type Message } from 'vscode-languageclient/node';
import { RestartBudget } from './restart-budget';

/**
 * Restarts a stopped server with growing delays (RestartBudget: 1 s, 2 s, 4 s, 8 s…), and gives
 * up after five restarts within three minutes, saying so, so a broken server cannot spin the CPU.
 * A server killed for not answering (the heartbeat) comes through here too: its process ends,
 * the connection closes, and it is restarted on the same budget as a crash.
 */
export class BackoffRestart implements ErrorHandler {
  private readonly budget: RestartBudget;
  /** Why the next close happens, when the extension caused it. */
  private expectedClose: string | undefined;

  constructor(private readonly log: (message: string) => void, budget = new RestartBudget()) {
    this.budget = budget;
  }

  /** The next close is the extension's own doing (e.g. it killed a server that stopped answering). */
  expectClose(reason: string): void {
    this.expectedClose = reason;
  }

  error(_error: Error, _message: Message | undefined, count: number | undefined): ErrorHandlerResult {
    return { action: (count ?? 0) <= 3 ? ErrorAction.Continue : ErrorAction.Shutdown };
  }

  async closed(): Promise<CloseHandlerResult> {
    const reason = this.expectedClose ?? 'stopped unexpectedly';
    this.expectedClose = undefined;
    const delay = this.budget.next();
    if (delay === undefined) {
      return { action: CloseAction.DoNotRestart, message: `The CI Routes server crashed or stopped answering ${this.budget.recent} times in 3 minutes and will not be restarted. Run "CI Routes: Restart Server" after fixing the cause (see the CI Routes output).` };
    }
    this.log(`server ${reason}; restarting in ${delay / 1000} s`);
    await new Promise((r) => setTimeout(r, delay));
    return { action: CloseAction.Restart, handled: true };
  }
}
