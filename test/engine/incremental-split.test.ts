import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as fc from 'fast-check';
import { StatementParser, type ParsedFile } from '../../shared/php/parse';
import { resplitStatements, splitStatements, type ScanResult } from '../../shared/php/scanner';
import type { PhpNode } from '../../shared/php/ast';
import { walkNodes } from '../../shared/php/walk';
import { EXAMPLE_APP } from '../helpers/paths';
import { FRAGMENTS, applyEdit, edit, sourceFiles, type Edit } from '../robustness/engine/edits';

/**
 * The incremental paths of the scanner and the statement parser against the full ones: after any
 * sequence of edits, resuming the last scan gives exactly the scan of the whole new text, and a
 * reused StatementParser gives what a fresh one gives, with the same nodes for unchanged texts.
 */

/** What breaks a scan the most: openings and closings of strings, comments, heredocs and tags. */
const SCANNER_BREAKERS = [
  '/*', '*/', "'", '"', '`', '?>', '<?php\n', '<?php', '<?=', '<<<EOT\n', '\nEOT;\n', "<<<'N'\n", '\nN;\n', '{', '}', '(', ')',
  ';', '//', '#', '#[', '{$', '\\', '\n', '\n  ', '  ', 'else', 'else:', 'endif;', 'if ($a):', 'if ($a) {', 'function f() {',
  'const A = 1;', 'function g() { const B = 2; }',
];

const SOURCES = sourceFiles().map((s) => s.text);

const piece = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...SCANNER_BREAKERS) },
  { weight: 3, arbitrary: fc.constantFrom(...FRAGMENTS) },
  { weight: 1, arbitrary: fc.string({ maxLength: 3 }) },
);

/** Real route files, several of them with pieces between, or a soup of pieces. */
const documentText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...SOURCES),
  fc
    .array(fc.tuple(fc.constantFrom(...SOURCES), fc.array(piece, { maxLength: 3 })), { minLength: 1, maxLength: 3 })
    .map((parts) => parts.map(([source, pieces]) => source + pieces.join('')).join('')),
  fc.tuple(fc.boolean(), fc.array(piece, { maxLength: 60 })).map(([php, pieces]) => (php ? '<?php\n' : '') + pieces.join('')),
);

/** The engine's usual edits, plus insertions of what breaks a scan. */
const scanEdit: fc.Arbitrary<Edit> = fc.oneof(
  { weight: 3, arbitrary: edit },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), text: fc.constantFrom(...SCANNER_BREAKERS) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 4 }), text: fc.constantFrom(...SCANNER_BREAKERS) }) },
);

/** How often the checked rescans reused chunks, and saw a truncated scan: the properties must meet each case. */
const seen = { kept: 0, moved: 0, truncated: 0 };

/** Resumes `previous` for the new text; checks it against a full scan and its claims of reuse. */
function checkRescan(previous: ScanResult, oldText: string, text: string, budget?: number): ScanResult {
  const rescan = resplitStatements(previous, oldText, text, budget);
  const { scan, keptBefore, movedFrom, oldMovedFrom, delta } = rescan;
  if (keptBefore > 0) seen.kept++;
  if (movedFrom < scan.chunks.length) seen.moved++;
  if (scan.truncated) seen.truncated++;
  assert.deepEqual(scan, splitStatements(text, budget), 'the resumed scan differs from a full one');
  assert.equal(delta, text.length - oldText.length);
  for (let k = 0; k < keptBefore; k++) assert.equal(scan.chunks[k], previous.chunks[k], `chunk ${k} is not the earlier one`);
  assert.equal(scan.chunks.length - movedFrom, previous.chunks.length - oldMovedFrom, 'moved chunks are not the earlier ones');
  for (let k = movedFrom, old = oldMovedFrom; k < scan.chunks.length; k++, old++) {
    const [now, before] = [scan.chunks[k], previous.chunks[old]];
    assert.equal(text.slice(now.start, now.end), oldText.slice(before.start, before.end), `moved chunk ${k} has another text`);
    assert.equal(now.start, before.start + delta);
  }
  return scan;
}

/** A parsed file as plain data (nodes as JSON), to compare two parses of one text. */
function view(file: ParsedFile): unknown {
  return {
    text: file.text,
    problems: file.problems,
    statements: file.statements.map((s) => ({ chunk: s.chunk, base: s.base, problems: s.problems, tooDeep: s.tooDeep, declaresConstant: s.declaresConstant, nodes: JSON.stringify(s.nodes) })),
    constantStatements: file.constantStatements,
    functionStatements: file.functionStatements,
  };
}

/** The counts a parse keeps, counted from its nodes. */
function counted(file: ParsedFile): { constantStatements: number; functionStatements: number } {
  let constantStatements = 0;
  let functionStatements = 0;
  for (const s of file.statements) {
    let constant = false;
    walkNodes(s.nodes, (n) => !(constant ||= n.kind === 'constantstatement'));
    if (constant) constantStatements++;
    if (s.nodes.some((n) => n.kind === 'function')) functionStatements++;
  }
  return { constantStatements, functionStatements };
}

/** The nodes of each `php` statement text of a parsed file. */
function nodesByText(file: ParsedFile): Map<string, PhpNode[]> {
  const byText = new Map<string, PhpNode[]>();
  for (const s of file.statements) if (s.chunk.kind === 'php') byText.set(file.text.slice(s.chunk.start, s.chunk.end), s.nodes);
  return byText;
}

/** Parses the next version with the reused parser and checks it against a fresh parser. */
function checkParse(parser: StatementParser, text: string, previous: ParsedFile): ParsedFile {
  const previousView = JSON.stringify(view(previous));
  const incremental = parser.parse(text);
  assert.deepEqual(view(incremental), view(new StatementParser().parse(text)), 'the reused parser differs from a fresh one');
  assert.deepEqual({ constantStatements: incremental.constantStatements, functionStatements: incremental.functionStatements }, counted(incremental), 'statements declaring constants or functions miscounted');
  assert.equal(JSON.stringify(view(previous)), previousView, 'parsing the next version changed the previous ParsedFile');
  const before = nodesByText(previous);
  const now = nodesByText(incremental);
  for (const s of incremental.statements) {
    if (s.chunk.kind !== 'php') continue;
    const source = text.slice(s.chunk.start, s.chunk.end);
    assert.equal(s.nodes, now.get(source), `two statements ${JSON.stringify(source)} got different nodes`);
    const earlier = before.get(source);
    if (earlier) assert.equal(s.nodes, earlier, `the unchanged statement ${JSON.stringify(source)} got new nodes`);
  }
  return incremental;
}

describe('incremental split and parse: equal to a fresh one after any edits', function () {
  this.timeout(120_000);

  it('resuming the last scan equals a full scan, and a reused parser equals a fresh one', () => {
    fc.assert(
      fc.property(documentText, fc.array(scanEdit, { minLength: 1, maxLength: 10 }), (source, edits) => {
        const parser = new StatementParser();
        const history = [source];
        let scan = splitStatements(source);
        let parsed = parser.parse(source);
        for (const e of edits) {
          const text = applyEdit(history, e);
          scan = checkRescan(scan, history[history.length - 1], text);
          parsed = checkParse(parser, text, parsed);
          history.push(text);
        }
      }),
      { seed: 20250114, numRuns: 250 },
    );
    assert.ok(seen.kept > 500 && seen.moved > 500, `chunks reused in only ${JSON.stringify(seen)} rescans`);
  });

  it('resuming a scan under a small work budget truncates where a full scan does', () => {
    seen.truncated = 0;
    const costly = fc.constantFrom("'\n", 'f(\n', '/* x\n', '<<<A\n', 'if ($a):\n', '{\n', '$a = 1;\n');
    const document = fc
      .tuple(fc.array(costly, { maxLength: 200 }), fc.array(piece, { maxLength: 20 }))
      .map(([units, pieces]) => '<?php\n' + units.join('') + pieces.join(''));
    fc.assert(
      fc.property(fc.oneof(document, documentText), fc.array(scanEdit, { minLength: 1, maxLength: 8 }), fc.integer({ min: 0, max: 3000 }), (source, edits, budget) => {
        const history = [source];
        let scan = splitStatements(source, budget);
        for (const e of edits) {
          const text = applyEdit(history, e);
          scan = checkRescan(scan, history[history.length - 1], text, budget);
          history.push(text);
        }
      }),
      { seed: 77, numRuns: 400 },
    );
    assert.ok(seen.truncated > 200, `only ${seen.truncated} truncated scans`);
  });

  it('an edit in the middle of a route file rescans a few statements and reuses the rest', () => {
    const routes = fs.readFileSync(path.join(EXAMPLE_APP, 'application', 'config', 'routes.php'), 'utf8');
    const source = Array.from({ length: 20 }, () => routes.replace(/^<\?php/, '')).join('\n').replace(/^/, '<?php');
    const previous = splitStatements(source);
    const at = source.indexOf("Route::", source.length >> 1);
    for (const text of [source.slice(0, at) + 'z' + source.slice(at + 1), source.slice(0, at) + 'z' + source.slice(at), source.slice(0, at) + source.slice(at + 1)]) {
      const { scan, keptBefore, movedFrom, oldMovedFrom } = resplitStatements(previous, source, text);
      assert.ok(movedFrom - keptBefore <= 4, `${movedFrom - keptBefore} chunks rescanned`);
      assert.ok(previous.chunks.length - (oldMovedFrom - keptBefore) > previous.chunks.length - 5, 'most chunks reused');
      assert.deepEqual(scan, splitStatements(text));
    }
  });

  it('keeps one parse for a text while any statement has it', () => {
    const parser = new StatementParser();
    const twice = "<?php\n$a = 1;\n$b = 2;\nRoute::get('t', 'c/m');\n$c = 3;\n$d = 4;\nRoute::get('t', 'c/m');\n$e = 5;\n$f = 6;\n$g = 7;\n$h = 8;\n";
    const first = parser.parse(twice);
    const once = twice.replace("$b = 2;\nRoute::get('t', 'c/m');", '$b = 2;');
    let parsed = parser.parse(once);
    for (const version of [once.replace('$h = 8', '$h = 9'), once.replace('$h = 8', '$h = 10')]) parsed = parser.parse(version);
    const again = parser.parse(parsed.text.replace('$a = 1;', "$a = 1;\nRoute::get('t', 'c/m');"));
    const nodes = again.statements.filter((s) => again.text.slice(s.chunk.start, s.chunk.end) === "Route::get('t', 'c/m');").map((s) => s.nodes);
    assert.equal(nodes.length, 2);
    assert.equal(nodes[0], first.statements[2].nodes);
    assert.equal(nodes[1], first.statements[2].nodes);
  });

  it('does not take a statement cut for recovery from the last scan when the edit changed the start of its line', () => {
    // The cut after an unterminated string depends on the indentation of the line it starts on.
    const source = "<?php\n$a = 1;\n$z = 0;\n$b = 2; $c = 'x\n  $d = 3;\n$e = 4;\n$f = 5;\n";
    const at = source.indexOf('$b');
    const text = source.slice(0, at) + '  ' + source.slice(at);
    const { scan, movedFrom } = resplitStatements(splitStatements(source), source, text);
    assert.deepEqual(scan, splitStatements(text));
    assert.notEqual(scan.chunks[3].end, splitStatements(source).chunks[3].end + 2, 'the indentation made no difference');
    assert.ok(movedFrom < scan.chunks.length, 'the scan joined the last one after the cut statement');
  });

  it('parses again only the statement an edit touched, and moves the problems of the others', () => {
    const parser = new StatementParser();
    const broken = "Route::get('a' 'b');";
    const rest = "Route::get('c', 'd');\n".repeat(3);
    const before = parser.parse(`<?php\n$a = 1;\n$b = 2;\nRoute::get('x', 'y');\n${rest}${broken}\n`);
    const after = parser.parse(`<?php\n$a = 1;\n$b = 2;\nRoute::get('xx', 'y');\n${rest}${broken}\n`);
    assert.equal(after.statements[6].nodes, before.statements[6].nodes);
    assert.ok(after.problems.length > 0);
    after.problems.forEach((p, k) => {
      assert.deepEqual(p.span, { start: before.problems[k].span.start + 1, end: before.problems[k].span.end + 1 });
      assert.notEqual(p.span, before.problems[k].span);
    });
    assert.deepEqual(view(after), view(new StatementParser().parse(after.text)));
  });
});
