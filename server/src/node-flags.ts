/**
 * The Node.js options the language server is started with by every launcher this project ships:
 * the VS Code extension, README.md's command line from a checkout, the tests' and the bench's
 * clients. (README's editor set-ups start the installed `ci-routes-language-server`, which runs
 * without them unless NODE_OPTIONS carries them.)
 *
 * `--max-semi-space-size=1`: by default V8 lets the young generation grow to semi-spaces of
 * 16 MB, and keeps them once grown, until its memory reducer shrinks them after 15 s or more
 * without work. The server allocates in bursts (an analysis), then answers small requests. With
 * the bench's 10,000-declaration workspace open (full session, one run each): 16 MB gave RSS
 * 209.6 MB (peak 314.7), 8 MB 193.5 (297.2), 4 MB 184.0 (287.6). 1 MB, measured later on the
 * same code both ways (`npm run bench -- --quick`, every mix): RSS right after opening 1,000
 * declarations 84.7–97.6 → 78.8–93.0 MB, 10,000 159–244 → 150–243 MB; `bench:compare` against 4 MB
 * (one-per-line and context-heavy, 1,000 and 10,000, two pairs of servers): edit, typing, outline
 * and request times within 0.93–1.08× by both ratios, peak RSS 0.84–0.97×. (An earlier
 * revision's first analysis promoted objects too early with 2 MB, and its peak rose to 435.8 MB.)
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=1'];

/**
 * The environment the language server is started with by the same launchers, on top of their
 * own (a value already set there wins).
 *
 * `MALLOC_ARENA_MAX=2`: glibc gives each thread that allocates its own malloc arena and keeps
 * what was freed in it. V8 optimises functions on background threads, whose memory stayed
 * resident: with at most two arenas, the RSS after opening everything in `npm run bench` fell
 * from 102.9 to 94.3 MB (bonfire, 1,000 declarations) and from 121.0 to 111.5 MB (context-heavy),
 * edit times unchanged. (`--no-concurrent-recompilation` kept as little, but optimising on the
 * server's own thread doubled the edit times; V8 reads it only at start, so the server cannot set
 * it itself.) One arena kept 2–4 MB less again (bonfire 1,000: 89–90 against 92–95 MB, two runs
 * each), edit times within the runs' noise; two are kept, so that V8's threads do not all queue
 * on one lock. Other C libraries ignore the variable.
 *
 * `MALLOC_TRIM_THRESHOLD_=0`, `MALLOC_TOP_PAD_=0`: glibc otherwise raises its thresholds as large
 * blocks are freed (V8's compilations free many), up to keeping tens of MB at the top of its heap
 * for later. With both, what is freed at the top goes back at once. In one `npm run bench` pass
 * each way, twice (bonfire and context-heavy, `--quick`): the example app's RSS 71.7 → 63.2 MB,
 * bonfire 1,000 94.5 → 88.3 MB, context-heavy 1,000 102.4 → 97.2 MB; at 10,000 the RSS after
 * opening within the runs' noise, the peak lower (bonfire 273 → 217 MB); edit and request times
 * within the runs' noise.
 */
export const SERVER_ENV: Readonly<Record<string, string>> = Object.freeze({ MALLOC_ARENA_MAX: '2', MALLOC_TRIM_THRESHOLD_: '0', MALLOC_TOP_PAD_: '0' });

/** `base` with SERVER_ENV's variables it does not set. */
export function serverEnv(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env = { ...base };
  for (const [name, value] of Object.entries(SERVER_ENV)) if (env[name] === undefined) env[name] = value;
  return env;
}
