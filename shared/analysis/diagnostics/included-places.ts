import { spanInEvaluatedFile, type IncludedFile, type Span } from '../../php/ast';
import { LineIndex } from '../../php/line-index';
import type { Finding, RelatedInfo } from './types';

const lineIndexes = new WeakMap<IncludedFile, LineIndex>();

/** Lines of an included file's text, read once per file read. */
export function includedLines(file: IncludedFile): LineIndex {
  let lines = lineIndexes.get(file);
  if (!lines) lineIndexes.set(file, (lines = new LineIndex(file.text)));
  return lines;
}

/** `admin.php line 4`: a place in an included file, for messages. */
export function describeIncludedPlace(span: Span & { file: IncludedFile }): string {
  return `${baseName(span.file.path)} line ${includedLines(span.file).lineOf(span.start) + 1}`;
}

/**
 * A finding whose place lies in a file the route file included, reported where an editor of the
 * route file sees it: at the include statement that ran that file, with the place itself as the
 * first related location (an editor opens it from there). Published on the included file, it
 * would stay there after the include is removed, and no editor would analyse that file alone.
 * Fixes editing another file are left out: edits apply to the analysed document.
 */
export function placedInEvaluatedFile(f: Finding): Finding {
  if (!f.span.file && !f.related.some((r) => r.span.file) && !f.fixes.some((fix) => fix.edits.some((e) => e.span.file))) return f;
  const related = f.related.map(relatedOutside);
  const fixes = f.fixes.filter((fix) => fix.edits.every((e) => !e.span.file));
  const span = f.span;
  if (!span.file) return { ...f, related, fixes };
  const where: RelatedInfo = { span, file: span.file.path, message: `Here, in ${describeIncludedPlace(span as Span & { file: IncludedFile })}` };
  return { ...f, span: spanInEvaluatedFile(span), message: `${f.message} (in ${describeIncludedPlace(span as Span & { file: IncludedFile })}, included here)`, related: [where, ...related], fixes };
}

function relatedOutside(r: RelatedInfo): RelatedInfo {
  return r.span.file && !r.file ? { ...r, file: r.span.file.path } : r;
}

function baseName(p: string): string {
  return p.slice(p.lastIndexOf('/') + 1);
}
