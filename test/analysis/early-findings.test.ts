import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { analyzeRouteFileSteps, sortFindings, type AnalyzeOptions } from '../../shared/analysis/diagnostics/analyze';
import { reachability } from '../../shared/analysis/diagnostics/checks/reachability';
import type { Finding } from '../../shared/analysis/diagnostics/core/types';
import { Describer } from '../../shared/analysis/model/origins';
import { evaluateRouteFile } from '../../shared/evaluate/evaluate-file';
import { catalogFor } from '../helpers/fixture-app';
import { ROOT } from '../helpers/paths';
import { formatFindings } from './fixture-format';

/**
 * An editor shows what the quick checks found while the inclusion checks (reachability: automata
 * for every pattern) still run on a large file. What it is shown first must be everything but
 * theirs, and they must not have started.
 */
const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'diagnostics');

describe('findings before the inclusion checks', () => {
  const files = fs.readdirSync(FIXTURES).filter((f) => f.endsWith('.php')).sort();
  let withInclusionFindings = 0;

  for (const f of files) {
    it(f, () => {
      const phpFile = path.join(FIXTURES, f);
      const text = fs.readFileSync(phpFile, 'utf8');
      const evaluation = evaluateRouteFile(text);
      const early: Finding[][] = [];
      let stepsAfterEarly = 0;
      const options: AnalyzeOptions = { controllers: catalogFor(phpFile), beforeInclusionChecks: (found) => early.push(found) };
      const steps = analyzeRouteFileSteps(text, evaluation, options);
      let r = steps.next();
      for (; !r.done; r = steps.next()) if (early.length) stepsAfterEarly++;
      const all = r.value as Finding[];

      assert.equal(early.length, 1, 'called once');
      assert.ok(stepsAfterEarly > 0, 'the inclusion checks run after it');
      const inclusion = reachability()({ text, evaluation, describe: Describer.of(text) });
      if (inclusion.length) withInclusionFindings++;
      assert.equal(formatFindings(text, sortFindings([...early[0], ...inclusion])), formatFindings(text, all), 'the early findings and the inclusion checks’ make the whole');
      assert.equal(formatFindings(text, early[0]), formatFindings(text, sortFindings([...early[0]])), 'in document order');
    });
  }

  after(() => assert.ok(withInclusionFindings >= 2, `fixtures with unreachable or shadowed routes: ${withInclusionFindings}`));
});
