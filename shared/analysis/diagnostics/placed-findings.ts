import { spanInEvaluatedFile, type IncludedFile, type Span } from '../../php/ast';
import { describeIncludedPlace } from '../model/included-places';
import type { Finding, RelatedInfo } from './core/types';

/** How the finding's file came to run, after its place. */
function howIncluded(span: Span & { file: IncludedFile }): string {
  const place = describeIncludedPlace(span);
  // The environment's route file has no include statement: the router runs it after the main file.
  const top = outermost(span.file);
  if (top.environment !== undefined) return `in ${place}, which CodeIgniter's router runs after this file for ENVIRONMENT '${top.environment}'`;
  return `in ${place}, included here`;
}

/** The file the evaluated file itself ran (the first link of a chain of includes). */
function outermost(file: IncludedFile): IncludedFile {
  let f = file;
  while (f.includedAt.file) f = f.includedAt.file;
  return f;
}

/**
 * A finding whose place lies in a file the route file included, reported where an editor of the
 * route file sees it: at the include statement that ran that file, with the place itself as the
 * first related location (an editor opens it from there). Published on the included file, it
 * would stay there after the include is removed, and no editor would analyse that file alone.
 * Fixes editing another file are left out: edits apply to the analysed document.
 */
export function placedInEvaluatedFile(f: Finding): Finding {
  if (!f.deferredFixes && !f.span.file && !f.related.some((r) => r.span.file) && !f.fixes.some((fix) => fix.edits.some((e) => e.span.file))) return f;
  const related = f.related.map(relatedOutside);
  const fixes = f.fixes.filter((fix) => fix.edits.every((e) => !e.span.file));
  const deferred = f.deferredFixes;
  const deferredFixes = deferred && (() => deferred().filter((fix) => fix.edits.every((e) => !e.span.file)));
  const span = f.span;
  if (!span.file) return { ...f, related, fixes, ...(deferredFixes ? { deferredFixes } : {}) };
  const where: RelatedInfo = { span, file: span.file.path, message: `Here, in ${describeIncludedPlace(span as Span & { file: IncludedFile })}` };
  return { ...f, span: spanInEvaluatedFile(span), message: `${f.message} (${howIncluded(span as Span & { file: IncludedFile })})`, related: [where, ...related], fixes, ...(deferredFixes ? { deferredFixes } : {}) };
}

function relatedOutside(r: RelatedInfo): RelatedInfo {
  return r.span.file && !r.file ? { ...r, file: r.span.file.path } : r;
}
