import { SymbolKind, type DocumentSymbol } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { FileEvaluation } from '../../../shared/evaluate/evaluate-file';
import { documentOutlineSteps, type RouteSymbol } from '../../../shared/analysis/features/symbols';
import type { Steps } from '../../../shared/util/steps';
import { StepsMemo } from '../../../shared/util/steps-memo';
import { spanToRange } from './convert';
import { visibleControls } from '../../../shared/util/escape';
import { sameItems } from '../../../shared/util/same-items';

const KINDS: Record<RouteSymbol['kind'], SymbolKind> = {
  declaration: SymbolKind.Function,
  prefix: SymbolKind.Namespace,
  statement: SymbolKind.Event,
  assignment: SymbolKind.Variable,
  route: SymbolKind.Constant,
};

export interface LspOutline {
  symbols: DocumentSymbol[];
  truncated: boolean;
}

/**
 * Outlines as LSP symbols, one per evaluation and limit. Editors ask for them again and again
 * (outline, breadcrumbs, sticky scroll), and on a huge file building one takes longer than a
 * request should: the server builds it when idle after an analysis, and a request that comes
 * first finishes that build.
 */
export class OutlineCache {
  /** One memo per limit (a folder setting, so rarely more than one). */
  private readonly byLimit = new Map<number, StepsMemo<FileEvaluation, LspOutline, [string]>>();
  /**
   * Route symbols' LSP form, with where their call started: a document's outlines share the route
   * symbols of the calls an edit left as they were (see OutlineCalls), and a call that starts at
   * the same line and column, its text the same, has the same ranges.
   */
  private readonly converted = new WeakMap<RouteSymbol, { line: number; character: number; symbol: DocumentSymbol }>();
  /**
   * Declarations' LSP form, by their first route symbol: a declaration whose children are the
   * same route symbols (its call kept, see OutlineCalls), named and described alike, at the same
   * line and column, is the same symbol. An edit leaves most of a large outline's declarations
   * so, and each was converted again, its ranges and its routes' looked up one by one.
   */
  private readonly declarations = new WeakMap<RouteSymbol, KnownDeclaration>();

  get(text: string, evaluation: FileEvaluation, limit: number): LspOutline {
    return this.memo(limit).get(evaluation, text);
  }

  /** get(), pausing every few hundred symbols. `text` is the evaluated text. */
  steps(text: string, evaluation: FileEvaluation, limit: number): Steps<LspOutline> {
    return this.memo(limit).steps(evaluation, text);
  }

  private memo(limit: number): StepsMemo<FileEvaluation, LspOutline, [string]> {
    let memo = this.byLimit.get(limit);
    if (!memo) this.byLimit.set(limit, (memo = new StepsMemo((evaluation, text) => build(text, evaluation, limit, this.converted, this.declarations))));
    return memo;
  }
}

interface KnownDeclaration {
  line: number;
  character: number;
  name: string;
  detail: string;
  routes: readonly RouteSymbol[];
  symbol: DocumentSymbol;
}

/** A declaration whose children are all routes it produced (no call written inside it): its first route names it (see OutlineCache.declarations). */
function routesOnly(s: RouteSymbol): boolean {
  if (s.kind !== 'declaration' || s.children.length === 0) return false;
  for (const c of s.children) if (c.kind !== 'route') return false;
  return true;
}

function* build(
  text: string,
  evaluation: FileEvaluation,
  limit: number,
  routes: WeakMap<RouteSymbol, { line: number; character: number; symbol: DocumentSymbol }>,
  declarations: WeakMap<RouteSymbol, KnownDeclaration>,
): Steps<LspOutline> {
  const outline = yield* documentOutlineSteps(text, evaluation, limit);
  // Positions from the evaluated text itself: the editor's document may have moved on meanwhile.
  const doc = TextDocument.create('', 'php', 0, text);
  let converted = 0;
  function* convert(s: RouteSymbol): Steps<DocumentSymbol> {
    if (s.kind === 'route') {
      const at = doc.positionAt(s.span.start);
      const known = routes.get(s);
      if (known && known.line === at.line && known.character === at.character) return known.symbol;
      const symbol = toSymbol(s, []);
      routes.set(s, { line: at.line, character: at.character, symbol });
      return symbol;
    }
    const declaration = routesOnly(s);
    let at: { line: number; character: number } | undefined;
    if (declaration) {
      at = doc.positionAt(s.span.start);
      const known = declarations.get(s.children[0]);
      if (known && known.line === at.line && known.character === at.character && known.name === s.name && known.detail === s.detail && sameItems(known.routes, s.children)) return known.symbol;
    }
    const children: DocumentSymbol[] = [];
    for (const c of s.children) children.push(yield* convert(c));
    if ((++converted & 1023) === 0) yield;
    const symbol = toSymbol(s, children);
    if (declaration && at) declarations.set(s.children[0], { line: at.line, character: at.character, name: s.name, detail: s.detail, routes: s.children.slice(), symbol });
    return symbol;
  }
  function toSymbol(s: RouteSymbol, children: DocumentSymbol[]): DocumentSymbol {
    // Empty details and children are left out: they are optional, and a huge outline is megabytes of JSON.
    // Names quote keys and targets: shown as plain text, with controls made visible.
    const symbol: DocumentSymbol = { name: visibleControls(s.name), kind: KINDS[s.kind], range: spanToRange(doc, s.span), selectionRange: spanToRange(doc, s.selectionSpan) };
    if (s.detail) symbol.detail = visibleControls(s.detail);
    if (children.length) symbol.children = children;
    return symbol;
  }
  const symbols: DocumentSymbol[] = [];
  for (const s of outline.symbols) symbols.push(yield* convert(s));
  return { symbols, truncated: outline.truncated };
}
