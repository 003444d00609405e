import { CompletionItemKind, MarkupKind, type ClientCapabilities, type CompletionItem, type CompletionList, type Range } from 'vscode-languageserver';
import type { MoreCompletionEntry } from '../../../shared/analysis/features/completion/completion-more';
import type { Span } from '../../../shared/php/ast';
import { visibleControls } from '../../../shared/util/escape';

const KIND: Record<MoreCompletionEntry['kind'], CompletionItemKind> = {
  'route-name': CompletionItemKind.Constant,
  method: CompletionItemKind.Method,
  option: CompletionItemKind.Property,
  wildcard: CompletionItemKind.Snippet,
  'option-value': CompletionItemKind.Value,
  module: CompletionItemKind.Module,
  folder: CompletionItemKind.Folder,
  controller: CompletionItemKind.Class,
  'controller-method': CompletionItemKind.Method,
};

/** What the client lets a completion answer leave out of every item. */
export interface CompletionShape {
  /** One `itemDefaults.editRange` for the list instead of a text edit per item (LSP 3.17). */
  editRangeDefault: boolean;
  /** The client asks for an item's documentation when it shows it (completionItem/resolve). */
  resolveDocumentation: boolean;
}

export const FULL_ITEMS: CompletionShape = { editRangeDefault: false, resolveDocumentation: false };

export function completionShape(caps: ClientCapabilities): CompletionShape {
  const completion = caps.textDocument?.completion;
  return {
    editRangeDefault: completion?.completionList?.itemDefaults?.includes('editRange') ?? false,
    resolveDocumentation: completion?.completionItem?.resolveSupport?.properties.includes('documentation') ?? false,
  };
}

/** Which answer and which of its items a resolve request is about. */
type ItemData = [answer: number, index: number];

/**
 * Completion entries as LSP items, as small as the client allows: a list of 100 route names
 * with their documentation and a text edit each is about 40 KB of JSON, shipped on every
 * keystroke while a name is typed. With `itemDefaults.editRange` and resolve support, each item
 * holds its label, kind and detail, and the documentation of the one the editor shows is sent
 * when it asks (kept for the last answer only: the editor resolves items of the list it shows).
 */
export class CompletionItems {
  private answers = 0;
  private lastDocs: { answer: number; labels: string[]; entries: readonly MoreCompletionEntry[] } | undefined;

  constructor(private shape: CompletionShape = FULL_ITEMS) {}

  /** The client's capabilities, known once it initialized. */
  useShape(shape: CompletionShape): void {
    this.shape = shape;
    this.lastDocs = undefined;
  }

  answer(entries: readonly MoreCompletionEntry[], rangeOf: (span: Span) => Range, complete: boolean): CompletionItem[] | CompletionList {
    const answer = ++this.answers;
    const shared = this.shape.editRangeDefault && entries.length > 0 && entries.every((e) => sameSpan(e.replace, entries[0].replace)) ? rangeOf(entries[0].replace) : undefined;
    const deferDocs = this.shape.resolveDocumentation;
    // Labels and details are plain text that may quote route names: controls shown, never raw (the edit inserts the text itself).
    const labels = entries.map((e) => visibleControls(e.label));
    // Deferred, an entry's documentation is read when the editor resolves it (a route name's is
    // written then: a hundred of them cost the first completion in a file most of its time).
    if (deferDocs) this.lastDocs = { answer, labels, entries };
    const items = entries.map((e, i): CompletionItem => {
      const item: CompletionItem = { label: labels[i], kind: KIND[e.kind] };
      if (e.detail !== undefined) item.detail = visibleControls(e.detail);
      if (deferDocs) {
        if (documented(e)) item.data = [answer, i] satisfies ItemData;
      } else if (e.documentation) item.documentation = { kind: MarkupKind.Markdown, value: e.documentation };
      const newText = e.insertText ?? e.label;
      if (shared) {
        if (newText !== labels[i]) item.textEditText = newText;
      } else item.textEdit = { range: rangeOf(e.replace), newText };
      // Route names first: in named('|') nothing else makes sense.
      if (e.sortText) item.sortText = e.sortText;
      else if (e.kind === 'route-name') item.sortText = `0${e.label}`;
      return item;
    });
    if (!shared && complete) return items;
    return { isIncomplete: !complete, items, ...(shared ? { itemDefaults: { editRange: shared } } : {}) };
  }

  /** The item with its documentation, when it comes from the last answer. */
  resolve(item: CompletionItem): CompletionItem {
    const data = item.data as ItemData | undefined;
    const last = this.lastDocs;
    if (!Array.isArray(data) || !last || data[0] !== last.answer || last.labels[data[1]] !== item.label) return item;
    const value = last.entries[data[1]]?.documentation;
    return value ? { ...item, documentation: { kind: MarkupKind.Markdown, value } } : item;
  }
}

/** Whether an entry has documentation, without writing it when it is written on demand (a getter). */
function documented(e: MoreCompletionEntry): boolean {
  const own = Object.getOwnPropertyDescriptor(e, 'documentation');
  return own !== undefined && (own.get !== undefined || !!own.value);
}

function sameSpan(a: Span, b: Span): boolean {
  return a.start === b.start && a.end === b.end;
}
