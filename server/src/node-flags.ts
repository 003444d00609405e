/**
 * The Node.js options the language server is started with by every launcher this project ships:
 * the VS Code extension, README.md's command line from a checkout, the tests' and the bench's
 * clients. (README's editor set-ups start the installed `ci-routes-language-server`, which runs
 * without them unless NODE_OPTIONS carries them.)
 *
 * `--max-semi-space-size=4`: by default V8 lets the young generation grow to semi-spaces of
 * 16 MB, and keeps them once grown. The server allocates in bursts (an analysis), then answers
 * small requests. With the bench's 10,000-declaration workspace open (full session, one run
 * each): 16 MB gave RSS 209.6 MB (peak 314.7), 8 MB 193.5 (297.2), 4 MB 184.0 (287.6), 2 MB
 * 184.1 (435.8: objects promoted too early fill the old generation during the first analysis).
 * Edit and request times did not move beyond the runs' noise.
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=4'];
