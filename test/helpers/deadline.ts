import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

/**
 * Runs a function in a worker thread under a deadline. A hang in the engine is synchronous: a
 * mocha timeout cannot interrupt it (the whole run would freeze), but a worker can be terminated.
 * So tests of "this always terminates" call their body through here and fail cleanly on a hang.
 *
 * The function is named by its compiled module's path and export name; it takes one
 * structured-cloneable argument and returns a structured-cloneable value (or a promise of one).
 * One worker is reused between calls (loading the engine once); a call that runs past its
 * deadline terminates it and the next call starts a new one.
 */
export class DeadlineRunner {
  private worker: Worker | undefined;
  private nextId = 0;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

  run<T>(modulePath: string, exportName: string, arg: unknown, deadlineMs: number): Promise<T> {
    const worker = this.ensureWorker();
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        this.stop();
        reject(new Error(`${exportName}(${JSON.stringify(arg)}) did not finish within ${deadlineMs} ms (a hang?)`));
      }, deadlineMs);
      this.pending.set(id, {
        resolve: (v) => (clearTimeout(timer), resolve(v as T)),
        reject: (e) => (clearTimeout(timer), reject(e)),
      });
      worker.postMessage({ id, modulePath, exportName, arg });
    });
  }

  /** Terminates the worker (call from an `after` hook). */
  stop(): void {
    const w = this.worker;
    this.worker = undefined;
    if (w) void w.terminate();
    for (const p of this.pending.values()) p.reject(new Error('the deadline worker was stopped'));
    this.pending.clear();
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(__filename, { workerData: { deadlineWorker: true } });
    // A worker left running must not keep mocha's process alive.
    worker.unref();
    worker.on('message', (m: { id: number; ok: boolean; value?: unknown; error?: string }) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (m.ok) p.resolve(m.value);
      else p.reject(new Error(m.error));
    });
    worker.on('error', (e) => {
      if (this.worker === worker) this.worker = undefined;
      for (const p of this.pending.values()) p.reject(e);
      this.pending.clear();
    });
    this.worker = worker;
    return worker;
  }
}

if (!isMainThread && (workerData as { deadlineWorker?: boolean } | null)?.deadlineWorker) {
  parentPort!.on('message', async (m: { id: number; modulePath: string; exportName: string; arg: unknown }) => {
    try {
      const fn = (require(m.modulePath) as Record<string, (arg: unknown) => unknown>)[m.exportName];
      if (typeof fn !== 'function') throw new Error(`${m.modulePath} exports no function ${m.exportName}`);
      parentPort!.postMessage({ id: m.id, ok: true, value: await fn(m.arg) });
    } catch (e) {
      // The stack carries assertion messages and where they failed back to the test.
      parentPort!.postMessage({ id: m.id, ok: false, error: e instanceof Error ? (e.stack ?? e.message) : String(e) });
    }
  });
}
