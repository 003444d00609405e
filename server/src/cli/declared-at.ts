import * as path from 'node:path';
import type { IncludedFile, Span } from '../../../shared/php/ast';
import { LineIndex } from '../../../shared/php/line-index';

/** A file as the CLI shows it: relative to the working folder. */
export const shownPath = (file: string): string => path.relative(process.cwd(), file) || file;

const includedLineIndexes = new WeakMap<IncludedFile, LineIndex>();
function includedLines(file: IncludedFile): LineIndex {
  let lines = includedLineIndexes.get(file);
  if (!lines) includedLineIndexes.set(file, (lines = new LineIndex(file.text)));
  return lines;
}

/** `file:line` of a place: in the route file (`file`, whose lines are `lines`), or in a file it included (the span says which). */
export function declaredAt(file: string, lines: LineIndex, span: Span | undefined): string {
  if (span === undefined) return '';
  return `${shownPath(span.file?.path ?? file)}:${(span.file ? includedLines(span.file) : lines).lineOf(span.start) + 1}`;
}
