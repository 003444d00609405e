import * as path from 'node:path';
import type { Span } from '../../../shared/php/ast';
import type { LineIndex } from '../../../shared/php/line-index';
import { includedLines } from '../../../shared/analysis/model/included-places';

/** A file as the CLI shows it: relative to the working folder. */
export const shownPath = (file: string): string => path.relative(process.cwd(), file) || file;

/** `file:line` of a place: in the route file (`file`, whose lines are `lines`), or in a file it included (the span says which). */
export function declaredAt(file: string, lines: LineIndex, span: Span | undefined): string {
  if (span === undefined) return '';
  return `${shownPath(span.file?.path ?? file)}:${(span.file ? includedLines(span.file) : lines).lineOf(span.start) + 1}`;
}
