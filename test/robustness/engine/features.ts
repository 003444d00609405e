import * as assert from 'node:assert/strict';
import { completeNamed, completeRouteMethods } from '../../../shared/analysis/features/completion/completion';
import { completeMore } from '../../../shared/analysis/features/completion/completion-more';
import { listingFromFiles } from '../../../shared/workspace/controller-catalog';
import { hoverAt } from '../../../shared/analysis/features/hover';
import { backReferenceHints } from '../../../shared/analysis/features/inlay-hints';
import { nameDeclarations } from '../../../shared/analysis/model/name-declarations';
import { prepareRename } from '../../../shared/analysis/features/rename';
import { signatureAt } from '../../../shared/analysis/features/signature-help';
import { documentSymbols } from '../../../shared/analysis/features/symbols';
import { targetDefinition } from '../../../shared/analysis/features/targets';
import type { FileEvaluation } from '../../../shared/evaluate/evaluate-file';
import type { Span } from '../../../shared/php/ast';
import { FileListTree } from '../../../shared/router/app-tree';

const PAGES = "<?php\nclass Pages extends CI_Controller {\n  public function show($id) {}\n  public function after() {}\n}\n";
const tree = new FileListTree(['controllers/Pages.php']);
const listing = listingFromFiles(new Map([['controllers/Pages.php', PAGES]]));

/** A few offsets spread over the file, both ends included. */
export function spreadOffsets(text: string): number[] {
  const n = text.length;
  return [...new Set([0, 1, 6, Math.floor(n / 3), Math.floor(n / 2), n - 1, n].filter((o) => o >= 0 && o <= n))];
}

/**
 * Asks every editor feature of shared/analysis at each offset (hover, completion, signature help,
 * rename, definition, symbols, inlay hints): none may throw, and what they return must point
 * inside the document.
 */
export function exerciseFeatures(text: string, evaluation: FileEvaluation, offsets: readonly number[]): void {
  const inside = (s: Span | undefined, what: string): void => {
    if (s) assert.ok(s.start >= 0 && s.start <= s.end && s.end <= text.length, `${what}: ${JSON.stringify(s)} outside [0, ${text.length}]`);
  };
  const names = new Map([...nameDeclarations(evaluation)].map(([name, d]) => [name, { from: d.from, methods: d.methods }]));
  for (const offset of offsets) {
    const at = `at ${offset}`;
    inside(hoverAt(text, evaluation, offset)?.span, `hover ${at}`);
    for (const c of completeNamed(text, offset, names) ?? []) inside(c.replace, `named completion ${at}`);
    for (const c of completeRouteMethods(text, offset) ?? []) inside(c.replace, `method completion ${at}`);
    for (const c of completeMore(text, offset, listing) ?? []) inside(c.replace, `completion ${at}`);
    signatureAt(text, offset);
    inside(prepareRename(text, offset)?.span, `rename ${at}`);
    targetDefinition(text, evaluation, offset, tree, () => PAGES);
  }
  for (const d of nameDeclarations(evaluation).values()) inside(d.span, 'name declaration');
  const symbols = documentSymbols(text, evaluation);
  for (const s of symbols.slice(0, 1000)) inside(s.span, `symbol ${s.name}`);
  for (const h of backReferenceHints(text, evaluation).slice(0, 1000)) assert.ok(h.offset >= 0 && h.offset <= text.length, `inlay hint at ${h.offset}`);
}
