import { addedAt } from '../../shared/library/record-marks';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DocumentEvaluator } from '../../shared/evaluate/document-evaluator';
import type { FileEvaluation } from '../../shared/evaluate/evaluate-file';
import type { RouteRecord } from '../../shared/library/records';
import { EXAMPLE_APP } from '../helpers/paths';

/**
 * Evaluations handed out should be values: what a consumer holds must not change when the next
 * version is evaluated. This lists every field of an evaluation's records that the next
 * evaluation of the same document writes in place. The list may only shrink: a field written that
 * is not listed fails, and so does a listed one no longer written.
 */
const KNOWN_IN_PLACE_WRITES: string[] = [];

type Fingerprint = Map<string, string>;

function fingerprint(evaluation: FileEvaluation): { prints: Fingerprint; records: RouteRecord[] } {
  const prints: Fingerprint = new Map();
  const records: RouteRecord[] = [];
  // A record in several methods' tables has marks under each.
  const placed: { r: RouteRecord; m: number }[] = [];
  const seen = new Set<RouteRecord>();
  evaluation.methods.forEach((method, m) => {
    for (const r of method.library.created) {
      placed.push({ r, m });
      if (seen.has(r)) continue;
      seen.add(r);
      records.push(r);
    }
  });
  placed.forEach(({ r, m }, i) => {
    const field = (name: string, v: unknown) => prints.set(`${i}|${name}`, JSON.stringify(v ?? null));
    const marks = evaluation.methods[m].library.marks;
    const overwrote = marks.overwrote(r);
    // As the evaluation places it in its own text.
    const site = evaluation.places.site(r.site);
    field('record.site.span', [site.span.start, site.span.end]);
    field('record.site.nameSpan', [site.nameSpan.start, site.nameSpan.end]);
    field('record.site.argSpans', site.argSpans.map((s) => [s.start, s.end]));
    field('marks.replacedBy', marks.replacedBy(r)?.id);
    field('marks.reset', marks.resetBy(r)?.at);
    field('marks.addedAt', addedAt(r, evaluation.methods[m].library));
    field('marks.overwrote', overwrote ? [overwrote.kind, overwrote.kind === 'route' ? evaluation.places.start(overwrote.site) : evaluation.places.entry(overwrote).span.start] : null);
  });
  return { prints, records };
}

describe('evaluations as values: what the next evaluation writes into the last one', () => {
  it('lists the fields written in place (the known ones only, which may only go)', () => {
    const text = fs.readFileSync(path.join(EXAMPLE_APP, 'application', 'config', 'routes.php'), 'utf8');
    const evaluator = new DocumentEvaluator({ recover: true });
    const first = evaluator.update(text);
    const before = fingerprint(first);
    // An edit above every declaration (their places move), then one that replaces a route.
    evaluator.update(text.replace('<?php\n', '<?php\n// a line above\n'));
    evaluator.update(text.replace('<?php\n', "<?php\n// a line above\nRoute::get('about', 'pages/other');\n"));
    const after = fingerprint(first);
    const written = new Set<string>();
    for (const [key, value] of before.prints) if (after.prints.get(key) !== value) written.add(key.split('|')[1]);
    assert.deepEqual([...written].sort(), KNOWN_IN_PLACE_WRITES);
  });
});
