import * as assert from 'node:assert/strict';
import { analyzeRouteFile } from '../../../shared/analysis/diagnostics/analyze';
import { evaluateRouteFile } from '../../../shared/evaluate/evaluate-file';
import { FileListTree } from '../../../shared/router/app-tree';
import { routeUri } from '../../../shared/router/ci-router';
import { spanViolations } from '../../helpers/span-invariants';
import { exerciseFeatures, spreadOffsets } from './features';
import { assertDeclared, assertFinding } from './hostile-cases';

/**
 * Catastrophic-backtracking patterns as route keys and constraints: the analyses (unreachable and
 * shadowed routes) must decide them on automata, and the URL tester must match them without
 * backtracking on hostile URIs. Run in the deadline worker like the other hostile cases.
 */

const MAP = '$route = Route::map($route);\n';

export interface RegexAnalysisCase {
  name: string;
  text: string;
  /** The key a later route has that every URI of it is matched first: reported unreachable. */
  unreachable?: string;
}

export const REGEX_ANALYSIS_CASES: RegexAnalysisCase[] = [
  {
    name: "Route::resources('x', ['constraint' => '((a+)+)+$'])",
    text: `<?php\nRoute::resources('x', ['constraint' => '((a+)+)+$']);\nRoute::get('x/aaaa', 'pages/show');\n${MAP}`,
    unreachable: 'x/aaaa',
  },
  { name: "Route::get('((a+)+)+$', 'c/m')", text: `<?php\nRoute::get('((a+)+)+$', 'c/m');\nRoute::get('aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', 'c/m');\n${MAP}`, unreachable: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' },
  { name: "Route::get('(a|a)*b', 'c/m')", text: `<?php\nRoute::get('(a|a)*b', 'c/m');\nRoute::get('aaaaaaaaaaaaaaaaaaaaaaaaaaaaab', 'c/m');\n${MAP}`, unreachable: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaab' },
  { name: "Route::get('(.*)*x', 'c/m')", text: `<?php\nRoute::get('(.*)*x', 'c/m');\nRoute::get('a/b/c/x', 'c/m');\n${MAP}`, unreachable: 'a/b/c/x' },
  // Nested counted repetitions: their automata are refused or given up on within their work bounds (took 5 s a key).
  { name: "Route::get('((a{1,20}){1,20}){1,20}', 'c/m') (nested counted repetitions)", text: `<?php\nRoute::get('((a{1,20}){1,20}){1,20}', 'c/m');\nRoute::get('aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', 'c/m');\n${MAP}` },
  { name: "Route::get('(.{1,50}){1,50}', 'c/m') and 200 more keys like it", text: `<?php\n${Array.from({ length: 200 }, (_, i) => `Route::get('(.{1,${30 + (i % 20)}}){1,${30 + (i >> 4)}}', 'c/m');\n`).join('')}Route::get('aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', 'c/m');\n${MAP}` },
  // Look-arounds and back-references are beyond automata: the analyses must give up on them, not backtrack.
  { name: "Route::get('((a+)+)+(?=b)', 'c/m') (a look-ahead)", text: `<?php\nRoute::get('((a+)+)+(?=b)', 'c/m');\nRoute::get('aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', 'c/m');\n${MAP}` },
  { name: "Route::get('(\\w+\\s?)+(?<=x)', 'c/m') (a look-behind)", text: `<?php\nRoute::get('(\\w+\\s?)+(?<=x)', 'c/m');\nRoute::get('aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', 'c/m');\n${MAP}` },
  { name: "Route::get('((a+)+)+\\1', 'c/m') (a back-reference)", text: `<?php\nRoute::get('((a+)+)+\\1', 'c/m');\nRoute::get('aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', 'c/m');\n${MAP}` },
];

export function runRegexAnalysis(name: string): string[] {
  const c = REGEX_ANALYSIS_CASES.find((x) => x.name === name);
  if (!c) throw new Error(`no regex case named ${name}`);
  const evaluation = evaluateRouteFile(c.text);
  const findings = analyzeRouteFile(c.text, evaluation);
  assert.deepEqual(spanViolations(c.text, evaluation, findings), []);
  const a = { text: c.text, evaluation, findings };
  if (c.unreachable) assertFinding(a, 'unreachable-route', new RegExp(`'${c.unreachable}' is never reached`));
  else assertDeclared(a, 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa');
  exerciseFeatures(c.text, evaluation, spreadOffsets(c.text));
  return findings.map((f) => f.code);
}

/** Keys whose backtracking takes exponential time on a run of `a`s. */
export const CATASTROPHIC_KEYS = ['((a+)+)+$', '(a|a)*b', '(.*)*x', '((a+)+)+(?=b)', '(a|a)*(?!x)b', '(\\w+\\s?)+(?<=x)', '((a+)+)+\\1', '(?P<n>(a+)+)+(?P=n)b'];

/** URIs a user may paste into the URL tester; the long ones are over any backtracking bound. */
const URIS = ['a'.repeat(50_000) + '!', 'a'.repeat(50_000), 'a'.repeat(255), 'a'.repeat(40) + 'c', 'a'.repeat(30)];

/** Routes every URI through a table whose first key is catastrophic; returns what matched. */
export function runUrlTester(key: string): (string | null)[] {
  const text = `<?php\nRoute::get('${key}', 'pages/show');\nRoute::get('(:any)', 'pages/after');\n${MAP}`;
  const evaluation = evaluateRouteFile(text);
  const routes = evaluation.methods[0].routes;
  assert.ok(routes && routes.size === 2, `the two routes reach $route: ${evaluation.methods[0].error?.message ?? ''}`);
  const tree = new FileListTree(['controllers/Pages.php']);
  return URIS.map((uri) => {
    const r = routeUri(routes, uri, { method: 'GET', tree });
    assert.equal(r.uri, uri);
    if (uri.endsWith('!')) assert.match(r.rejected ?? '', /disallowed characters/, 'the URI tester refuses what CodeIgniter refuses');
    else assert.ok(r.matched_key !== null, `'${uri.slice(0, 20)}…' (${uri.length}) is routed: '(:any)' matches it if '${key}' does not`);
    return r.matched_key;
  });
}
