import { CloseAction, ErrorAction, type CloseHandlerResult, type ErrorHandler, type ErrorHandlerResult, type Message } from 'vscode-languageclient/node';

/**
 * Restarts a crashed server with growing delays (1 s, 2 s, 4 s, 8 s), and gives up after five
 * crashes within three minutes, saying so, so a broken server cannot spin the CPU.
 */
export class BackoffRestart implements ErrorHandler {
  private crashes: number[] = [];

  constructor(private readonly log: (message: string) => void) {}

  error(_error: Error, _message: Message | undefined, count: number | undefined): ErrorHandlerResult {
    return { action: (count ?? 0) <= 3 ? ErrorAction.Continue : ErrorAction.Shutdown };
  }

  async closed(): Promise<CloseHandlerResult> {
    const now = Date.now();
    this.crashes = this.crashes.filter((t) => now - t < 3 * 60_000);
    this.crashes.push(now);
    if (this.crashes.length > 5) {
      return { action: CloseAction.DoNotRestart, message: 'The CI Routes server crashed 5 times in 3 minutes and will not be restarted. Run "CI Routes: Restart Server" after fixing the cause (see the CI Routes output).' };
    }
    const delay = 1000 * 2 ** (this.crashes.length - 1);
    this.log(`server stopped unexpectedly; restarting in ${delay / 1000} s`);
    await new Promise((r) => setTimeout(r, delay));
    return { action: CloseAction.Restart, handled: true };
  }
}
