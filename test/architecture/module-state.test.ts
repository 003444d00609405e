import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ROOT } from '../helpers/paths';

/**
 * Where derived data may live. Module-level state is read from the sources (a `let`, an empty
 * `new Map()`/`WeakMap()`/`Set()`, an object made by `new` under a lower-case name, an array
 * filled later (constants are named in capitals), a static field holding one) and must be listed
 * here with what it is. The kinds:
 *
 * - `value`: a memo keyed by an immutable value (an evaluation or a value in one, a catalog), held
 *   weakly: a pure function of that value, gone with it. Each is a query of DERIVED_QUERIES
 *   (shared/analysis/derived-queries.ts), which the warm-equals-fresh test asks.
 * - `string`: a bounded memo of a pure function of strings.
 * - `id`: a counter giving unique ids.
 * - `process`: a setting or resource of the process, set once by its host (the read fence's roots,
 *   the parser, the arena automata are cut from).
 *
 * What a document's versions carry over to the next is no module's: it is in the document's state
 * (`evaluation.lineage`, evaluate/document-state.ts), whose fields DERIVED_QUERIES lists too.
 */
const MODULE_STATE: Record<string, 'value' | 'string' | 'id' | 'process'> = {
  'shared/runtime/builtins.ts:prepaid': 'process',
  'shared/runtime/values.ts:closureIds': 'id',
  'shared/runtime/numbers.ts:parsed': 'string',
  'shared/evaluate/evaluate-file.ts:stops': 'value',
  'shared/evaluate/checkpoint.ts:functionsOf': 'value',
  'shared/router/pattern.ts:cache': 'string',
  'shared/router/pattern.ts:moduleCache': 'string',
  'shared/library/record-table.ts:lastFrozenId': 'id',
  'shared/library/records.ts:recordIds': 'id',
  'shared/library/records.ts:unknownPaths': 'value',
  'shared/library/record-marks.ts:positions': 'value',
  'shared/workspace/php-index.ts:parser': 'process',
  'shared/analysis/model/origins.ts:last': 'string',
  'shared/analysis/model/calls-at.ts:bySite': 'value',
  'shared/analysis/model/calls-at.ts:byTarget': 'value',
  'shared/analysis/model/cursor-context.ts:lastSplit': 'string',
  'shared/analysis/model/included-places.ts:lineIndexes': 'value',
  'shared/analysis/model/produced.ts:indexes': 'value',
  'shared/analysis/model/target-scope.ts:scopes': 'value',
  'shared/analysis/model/table-view.ts:views': 'value',
  'shared/analysis/model/table-view.ts:inputsCompared': 'value',
  'shared/analysis/model/table-view.ts:changes': 'value',
  'shared/analysis/model/declarations.ts:uniqueCallsCache': 'value',
  'shared/analysis/model/name-declarations.ts:declarationCache': 'value',
  'shared/analysis/model/records-by-site.ts:memo': 'value',
  'shared/analysis/features/symbols.ts:entriesCache': 'value',
  'shared/analysis/regular/pattern-automata.ts:sharedClassMaps': 'string',
  'shared/analysis/regular/pattern-automata.ts:arena': 'process',
  'shared/analysis/diagnostics/checks/duplicates.ts:overwriting': 'value',
  'shared/analysis/diagnostics/checks/module-keys.ts:decisions': 'string',
  'shared/analysis/diagnostics/checks/module-keys.ts:mainChecker': 'string',
  'shared/analysis/diagnostics/checks/controllers.ts:verdicts': 'value',
  'shared/analysis/diagnostics/checks/options.ts:ignoredByCall': 'value',
  'shared/analysis/diagnostics/checks/patterns.ts:refsCache': 'string',
  'shared/analysis/diagnostics/checks/unknowns.ts:counts': 'value',
  'shared/analysis/diagnostics/checks/reachability.ts:conditionalViews': 'value',
  'shared/analysis/diagnostics/core/call-groups.ts:memo': 'value',
  'server/src/lsp/name-declarations.ts:sharedMethods': 'string',
  'server/src/host/read-fence.ts:roots': 'process',
};

/** Top-level (or static) declarations holding state that changes after the module loads. */
const STATE_PATTERNS = [
  /^(?:export )?let (\w+)/,
  /^(?:export )?const (\w+)(?::[^=]*)? = new (?:Map|WeakMap|Set|WeakSet)(?:<.*>)?\(\)/,
  /^(?:export )?const ([a-z]\w*): [^=]*\[\] = \[\];/,
  /^\s+(?:private |protected |public )?static (?:readonly )?(\w+)(?::[^=]*)?(?: = new (?:Map|WeakMap|Set|StepsMemo)\b.*)?;?$/,
  /^(?:export )?const (\w+) = new StepsMemo\b/,
  /^(?:export )?const ([a-z]\w*)(?::[^=]*)? = new (?!Map\b|WeakMap\b|Set\b|WeakSet\b|StepsMemo\b)[A-Z]\w*\b/,
];

function moduleState(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const f of fs.readdirSync(path.join(ROOT, dir))) {
      const p = `${dir}/${f}`;
      if (fs.statSync(path.join(ROOT, p)).isDirectory()) walk(p);
      else if (p.endsWith('.ts')) {
        for (const line of fs.readFileSync(path.join(ROOT, p), 'utf8').split('\n')) {
          for (const pattern of STATE_PATTERNS) {
            const m = pattern.exec(line);
            // A static constant made once (`static readonly NONE = new Places(...)`), or one typed
            // read-only (`const NONE: readonly X[] = []`), is not state.
            if (m && !/static readonly \w+ = new (?!Map|WeakMap|Set)/.test(line) && !/^(?:export )?const \w+: [Rr]eadonly/.test(line)) found.push(`${p}:${m[1]}`);
          }
        }
      }
    }
  };
  for (const dir of ['shared', 'server/src']) walk(dir);
  return [...new Set(found)].sort();
}

describe('architecture: where derived data lives', () => {
  it('lists every piece of module-level state with what it is keyed by', () => {
    assert.deepEqual(moduleState(), Object.keys(MODULE_STATE).sort());
  });

  it('sees module-level state where there is some (the check can fail)', () => {
    const lines = ['let counter = 0;', 'const memo = new WeakMap<FileEvaluation, X>();', 'const recent: Entry[] = [];', '  private static last: { text: string } | undefined;', 'const checker = new InclusionChecker();'];
    assert.deepEqual(
      lines.map((line) => STATE_PATTERNS.some((p) => p.test(line))),
      [true, true, true, true, true],
    );
    assert.equal(STATE_PATTERNS.some((p) => p.test("const URI = new RegExp('x');")), false);
    assert.equal(STATE_PATTERNS.some((p) => p.test("const NAMES: ReadonlySet<string> = new Set(['a']);")), false);
  });
});
