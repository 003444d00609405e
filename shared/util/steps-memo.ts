import { runSteps, type Steps } from './steps';

/**
 * A value computed once per key by work that can pause. Background work may start it in steps and
 * a request that needs it first finishes that same run instead of starting another. `A` is what
 * else the build reads: the caller that starts a run gives it, and it must follow from the key.
 */
export class StepsMemo<K extends object, V, A extends unknown[] = []> {
  private readonly done = new WeakMap<K, { value: V }>();
  private readonly running = new WeakMap<K, Steps<V>>();

  constructor(private readonly build: (key: K, ...args: A) => Steps<V>) {}

  /** The value, computed now if no one has finished it yet. */
  get(key: K, ...args: A): V {
    return runSteps(this.steps(key, ...args));
  }

  /** Whether the value is computed. */
  has(key: K): boolean {
    return this.done.has(key);
  }

  /** The value, pausing between the build's own pauses. */
  *steps(key: K, ...args: A): Steps<V> {
    for (;;) {
      const done = this.done.get(key);
      if (done) return done.value;
      let run = this.running.get(key);
      if (!run) {
        run = this.build(key, ...args);
        this.running.set(key, run);
      }
      let r: IteratorResult<void, V>;
      try {
        r = run.next();
      } catch (e) {
        this.running.delete(key);
        throw e;
      }
      if (r.done) {
        this.running.delete(key);
        this.done.set(key, { value: r.value });
        return r.value;
      }
      yield;
    }
  }
}
