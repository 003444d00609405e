/**
 * Loaded by mocha before any test file (see .mocharc.json): every evaluation handed out in the
 * suite, in this process and in the servers it starts, is deep-frozen (see
 * shared/evaluate/frozen-evaluations.ts), so a write into one fails the test that made it.
 */
process.env.CI_ROUTES_FREEZE_EVALUATIONS = '1';
