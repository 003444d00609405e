import { DeadlineRunner } from '../helpers/deadline';
import { ENGINE_CASES } from './engine/hostile-cases';
import { CATASTROPHIC_KEYS, REGEX_ANALYSIS_CASES } from './engine/regex-cases';

/**
 * One test per hostile input: the analysis completes without throwing and says something
 * meaningful (a syntax error, the step budget, the nesting limit, the file-size limit, a finding
 * about the routes), and every editor feature answers on the file. Each case runs in a worker
 * with a deadline: a hang fails its test instead of freezing the run. There are no timing
 * assertions otherwise.
 */
describe('hostile inputs', function () {
  // A deadline that catches a hang, not a speed bound: at 62% steal the 10 MB file took over 20 s.
  this.timeout(90_000);
  const DEADLINE_MS = 75_000;
  const runner = new DeadlineRunner();
  const cases = require.resolve('./engine/hostile-cases');
  const regex = require.resolve('./engine/regex-cases');
  after(() => runner.stop());

  it('a 10 MB route file through the server: refused above ciRoutes.maxFileSize with a diagnostic', () =>
    runner.run(require.resolve('./engine/size-limit'), 'serverRefusesLargeFile', null, DEADLINE_MS));

  for (const c of ENGINE_CASES) {
    if (c.skip) it.skip(`${c.name} (skipped: ${c.skip})`, () => undefined);
    else it(c.name, () => runner.run(cases, 'runEngineCase', c.name, DEADLINE_MS));
  }

  describe('catastrophic regular expressions in route keys (unreachable/shadowed analysis)', () => {
    for (const c of REGEX_ANALYSIS_CASES) it(c.name, () => runner.run(regex, 'runRegexAnalysis', c.name, DEADLINE_MS));
  });

  describe('catastrophic regular expressions in the URL tester, on URIs up to 50,000 characters', () => {
    for (const key of CATASTROPHIC_KEYS) it(`'${key}'`, () => runner.run(regex, 'runUrlTester', key, DEADLINE_MS));
  });
});
