import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ROOT } from '../helpers/paths';
import { DERIVED_QUERIES } from '../../shared/analysis/derived-queries';
import { DocumentState, type DocumentPart } from '../../shared/evaluate/document-state';
import { DocumentEvaluator } from '../../shared/evaluate/document-evaluator';
import { RECENT_VIEWS } from '../../shared/analysis/model/table-view';
import { OUTLINE_CALLS } from '../../shared/analysis/features/symbols';
import { CHECK_STATE } from '../../shared/analysis/diagnostics/checks/document-state';

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
  'shared/analysis/features/hover.ts:declarationHovers': 'value',
  'shared/analysis/regular/pattern-automata.ts:sharedClassMaps': 'string',
  'shared/analysis/regular/default-chars-keys.ts:within': 'string',
  'shared/analysis/regular/pattern-automata.ts:arena': 'process',
  'shared/analysis/diagnostics/checks/duplicates.ts:overwriting': 'value',
  'shared/analysis/model/module-uris.ts:decisions': 'string',
  'shared/analysis/diagnostics/checks/module-keys.ts:mainChecker': 'string',
  'shared/analysis/diagnostics/checks/controllers.ts:verdicts': 'value',
  'shared/analysis/diagnostics/checks/options.ts:ignoredByCall': 'value',
  'shared/analysis/diagnostics/checks/patterns.ts:largestRefs': 'string',
  'shared/analysis/diagnostics/checks/patterns.ts:syntaxOfKeys': 'string',
  'shared/analysis/diagnostics/checks/unknowns.ts:counts': 'value',
  'shared/analysis/diagnostics/checks/reachability.ts:conditionalViews': 'value',
  'shared/analysis/diagnostics/core/call-groups.ts:memo': 'value',
  'shared/php/line-index.ts:recentIndexes': 'string',
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

/** Every source file of the engine and the server, with its text. */
function sources(): { file: string; text: string }[] {
  const out: { file: string; text: string }[] = [];
  const walk = (dir: string) => {
    for (const f of fs.readdirSync(path.join(ROOT, dir))) {
      const p = `${dir}/${f}`;
      if (fs.statSync(path.join(ROOT, p)).isDirectory()) walk(p);
      else if (p.endsWith('.ts')) out.push({ file: p, text: fs.readFileSync(path.join(ROOT, p), 'utf8') });
    }
  };
  for (const dir of ['shared', 'server/src']) walk(dir);
  return out;
}

function moduleState(): string[] {
  const found: string[] = [];
  for (const { file, text } of sources()) {
    for (const line of text.split('\n')) {
      for (const pattern of STATE_PATTERNS) {
        const m = pattern.exec(line);
        // A static constant made once (`static readonly NONE = new Places(...)`), or one typed
        // read-only (`const NONE: readonly X[] = []`), is not state.
        if (m && !/static readonly \w+ = new (?!Map|WeakMap|Set)/.test(line) && !/^(?:export )?const \w+: [Rr]eadonly/.test(line)) found.push(`${file}:${m[1]}`);
      }
    }
  }
  return [...new Set(found)].sort();
}

/**
 * The parts of a document's state declared by the layers above the evaluator, each with what it
 * makes: a part found in the sources and not here fails (its fields would go undeclared).
 */
const DOCUMENT_PARTS: readonly DocumentPart<object>[] = [RECENT_VIEWS, CHECK_STATE, OUTLINE_CALLS];

/** Where each field of a document's state is stored, as DERIVED_QUERIES names it (`document:…`). */
function documentFields(): string[] {
  // DocumentState's own fields, but for the map holding its parts.
  const own = Object.keys(new DocumentState()).filter((k) => k !== 'parts').map((k) => `document:${k}`);
  const declared = new Set(DERIVED_QUERIES.map((q) => q.stored));
  // A part is declared whole (`document:<part>`), or field by field.
  const parts = DOCUMENT_PARTS.flatMap((part) => (declared.has(`document:${part.name}`) ? [`document:${part.name}`] : Object.keys(part.make()).map((k) => `document:${part.name}.${k}`)));
  return [...own, ...parts].sort();
}

/** Classes holding what a document carries between versions: made only in a document's state. */
const PER_DOCUMENT_CLASSES = /\bnew (EntryResults|DecisionMemo|PositionMemo|RecentViews|RecentOverlaps|OutlineCalls)\b/;
const DOCUMENT_STATE_FILES = ['shared/evaluate/document-state.ts', 'shared/analysis/model/table-view.ts', 'shared/analysis/diagnostics/checks/document-state.ts', 'shared/library/route-library.ts', 'shared/evaluate/replay.ts', 'shared/analysis/features/symbols.ts'];

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

describe('architecture: derived data declared in one place (shared/analysis/derived-queries.ts)', () => {
  const stored = DERIVED_QUERIES.map((q) => q.stored);

  it('names each derived query once, with where it is kept', () => {
    assert.deepEqual(stored.filter((s, i) => stored.indexOf(s) !== i), []);
    assert.deepEqual(stored.filter((s) => !/^(?:module:.+:\w+|document:\w+(?:\.\w+)?|evaluator:\w+|check:\w+\.\w+)$/.test(s)), []);
  });

  it('declares only fields a DocumentEvaluator has', () => {
    const fields = Object.keys(new DocumentEvaluator());
    assert.deepEqual(stored.filter((s) => s.startsWith('evaluator:') && !fields.includes(s.slice('evaluator:'.length))), []);
  });

  it('declares every memo keyed by a value, and none that is not there', () => {
    const values = Object.entries(MODULE_STATE).filter(([, kind]) => kind === 'value').map(([where]) => `module:${where}`);
    assert.deepEqual(values.filter((v) => !stored.includes(v)), []);
    const memos = Object.entries(MODULE_STATE).filter(([, kind]) => kind === 'value' || kind === 'string').map(([where]) => `module:${where}`);
    assert.deepEqual(stored.filter((s) => s.startsWith('module:') && !memos.includes(s)), []);
  });

  it("declares every field of a document's state, and none that is not there", () => {
    const fields = documentFields();
    assert.deepEqual(fields.filter((f) => !stored.includes(f)), []);
    assert.deepEqual(stored.filter((s) => s.startsWith('document:') && !fields.includes(s)), []);
    // Kept with the document: what a document's versions carry over.
    assert.deepEqual(DERIVED_QUERIES.filter((q) => q.stored.startsWith('document:') && q.key !== 'document').map((q) => q.query), []);
    assert.deepEqual(DERIVED_QUERIES.filter((q) => q.key === 'document' && !/^(?:document|evaluator):/.test(q.stored)).map((q) => q.query), []);
  });

  it("knows every part of a document's state the sources declare", () => {
    const declared = sources().flatMap(({ text }) => [...text.matchAll(/DocumentPart<\w+> = \{ name: '(\w+)'/g)].map((m) => m[1]));
    assert.deepEqual(declared.sort(), DOCUMENT_PARTS.map((p) => p.name).sort());
  });

  it("keeps nothing by a document's lineage outside its state, and no check object holds a document's memo", () => {
    const wrong: string[] = [];
    for (const { file, text } of sources()) {
      text.split('\n').forEach((line, i) => {
        if (/(?:Weak)?Map<(?:object|DocumentState)\b/.test(line) || /\.(?:get|set|has)\([^)]*\blineage\b/.test(line)) wrong.push(`${file}:${i + 1}: ${line.trim()}`);
        if (PER_DOCUMENT_CLASSES.test(line) && !DOCUMENT_STATE_FILES.includes(file)) wrong.push(`${file}:${i + 1}: ${line.trim()}`);
      });
    }
    assert.deepEqual(wrong, []);
  });

  it('sees an undeclared memo, document field or lineage key (the checks can fail)', () => {
    assert.ok(!stored.includes('module:shared/analysis/model/example.ts:memo'));
    assert.ok(PER_DOCUMENT_CLASSES.test('const judged = new EntryResults(judge);'));
    assert.ok(/(?:Weak)?Map<(?:object|DocumentState)\b/.test('const byDocument = new WeakMap<object, Decisions>();'));
    assert.ok(documentFields().includes('document:checks.reachability'));
  });
});
