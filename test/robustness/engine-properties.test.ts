import * as assert from 'node:assert/strict';
import { evaluateRouteFile } from '../../shared/evaluate/evaluate-file';
import { DeadlineRunner } from '../helpers/deadline';
import { compareEvaluations } from '../helpers/evaluation-snapshot';
import type { PropertyRun } from './engine/properties';

/**
 * Property-based tests of the engine (fast-check, fixed seeds so a run is reproducible): random
 * edit sequences applied to real route files, and arbitrary text. Each property runs in a worker
 * under a deadline, because the failure they look for includes a hang, which mocha's timeout
 * cannot interrupt.
 */
describe('engine properties', function () {
  this.timeout(150_000);
  const runner = new DeadlineRunner();
  const properties = require.resolve('./engine/properties');
  after(() => runner.stop());

  it('random edits of real route files: no throw, spans inside the document, incremental = fresh', async () => {
    const r = await runner.run<{ versions: number }>(properties, 'editSequences', { seed: 7, numRuns: 35 } satisfies PropertyRun, 120_000);
    assert.ok(r.versions > 80, `${r.versions} versions checked`);
  });

  it('the snapshot comparison sees a difference (so the property above can fail)', () => {
    const a = "<?php\nRoute::get('a', 'pages/show');\n$route = Route::map($route);\n";
    const b = a.replace("'a'", "'b'");
    assert.equal(compareEvaluations(a, evaluateRouteFile(a), evaluateRouteFile(a)), undefined);
    assert.match(compareEvaluations(a, evaluateRouteFile(b), evaluateRouteFile(a)) ?? '', /^\$\.methods\.GET\.routes/);
  });

  for (const [kind, seed] of [['ascii', 11], ['unicode', 12], ['latin1', 13], ['utf8', 14], ['tokens', 15]] as const) {
    it(`evaluation of arbitrary text terminates within the step budget (${kind})`, async () => {
      const r = await runner.run<{ limited: number }>(properties, 'arbitraryTextTerminates', { seed, numRuns: kind === 'tokens' ? 150 : 60, kind }, 90_000);
      // Token soups are full of loops: some of them must have run into the budget.
      if (kind === 'tokens') assert.ok(r.limited > 0, 'no token soup hit the step budget');
    });
  }
});
