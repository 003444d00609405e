import { moduleOfRouteFile } from '../../app/layout';
import type { IncludedFile, Span } from '../../php/ast';
import { LineIndex } from '../../php/line-index';

const lineIndexes = new WeakMap<IncludedFile, LineIndex>();

/** Lines of an included file's text, read once per file read. */
export function includedLines(file: IncludedFile): LineIndex {
  let lines = lineIndexes.get(file);
  if (!lines) lineIndexes.set(file, (lines = LineIndex.of(file.text)));
  return lines;
}

/** `admin.php line 4`: a place in an included file, for messages. */
export function describeIncludedPlace(span: Span & { file: IncludedFile }): string {
  return `${shortName(span.file)} line ${includedLines(span.file).lineOf(span.start) + 1}`;
}

/** An included file's name in messages; an environment's route file with its folder (`production/routes.php`), told from the main one. */
function shortName(file: IncludedFile): string {
  if (file.environment !== undefined) return `${file.environment}/${baseName(file.path)}`;
  // Every module's is routes.php: its module tells them apart (a main file may include them all).
  const module = moduleOfRouteFile(file.path);
  return module === undefined ? baseName(file.path) : `modules/${module}/config/routes.php`;
}

function baseName(p: string): string {
  return p.slice(p.lastIndexOf('/') + 1);
}
