/**
 * Work that can pause: a generator that yields between units of work and returns its result.
 * The server runs analyses in time slices with it, so that requests are answered in between;
 * every other caller runs the work to the end at once (runSteps).
 */
export type Steps<T> = Generator<void, T, void>;

export function runSteps<T>(steps: Steps<T>): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}
