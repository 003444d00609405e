import { nameDeclarations } from '../../../shared/analysis/model/name-declarations';
import type { FileEvaluation } from '../../../shared/evaluate/evaluate-file';
import { LineIndex } from '../../../shared/php/line-index';

/** Where a route name is declared, as a zero-based range, with the pattern it returns. */
export interface LocatedDeclaration {
  /** The file an include of the route file ran, when the declaration lies there (the range is in it). */
  file?: string;
  line: number;
  character: number;
  endLine: number;
  endCharacter: number;
  from: string;
  /** The route's target, as the tables show it. */
  target: string;
  /** The target is a string the router dispatches (not a closure or a verb array). */
  dispatches: boolean;
  methods: string[];
}

/** A route file's name declarations, whichever way the index keeps them. */
export interface NameDeclarations {
  get(name: string): LocatedDeclaration | undefined;
  /** Every name with its pattern and methods (completion lists them). */
  entries(): Iterable<[string, { from: string; methods: string[] }]>;
}

/**
 * The declarations of a file whose evaluation the index holds, read when first asked for (a
 * definition, a completion): an edit publishes its diagnostics without scanning every record.
 */
export class EvaluatedDeclarations implements NameDeclarations {
  private lineIndex: LineIndex | undefined;

  constructor(
    private readonly text: string,
    private readonly evaluation: FileEvaluation,
  ) {}

  get(name: string): LocatedDeclaration | undefined {
    const decl = nameDeclarations(this.evaluation).get(name);
    if (!decl) return undefined;
    const included = decl.span.file;
    const lines = included ? LineIndex.of(included.text) : (this.lineIndex ??= LineIndex.of(this.text));
    const a = lines.position(decl.span.start);
    const b = lines.position(decl.span.end);
    const at = { line: a.line, character: a.character, endLine: b.line, endCharacter: b.character, from: decl.from, target: decl.target, dispatches: decl.dispatches, methods: decl.methods };
    return included ? { file: included.path, ...at } : at;
  }

  entries(): Iterable<[string, { from: string; methods: string[] }]> {
    return nameDeclarations(this.evaluation).entries();
  }

  /** The same answers as plain data, so that the evaluation and the text can go. */
  compact(): CompactDeclarations {
    const located = new Map<string, LocatedDeclaration>();
    for (const name of nameDeclarations(this.evaluation).keys()) located.set(name, this.get(name)!);
    return new CompactDeclarations(located);
  }
}

/** Methods lists are few and repeated (`GET`, the eight of any()): one array per distinct list. */
const sharedMethods = new Map<string, string[]>();
function shared(methods: string[]): string[] {
  const key = methods.join(',');
  let list = sharedMethods.get(key);
  if (!list) sharedMethods.set(key, (list = Object.freeze([...methods]) as string[]));
  return list;
}

/** The declarations of a file whose evaluation the index let go: positions and patterns only. */
export class CompactDeclarations implements NameDeclarations {
  private readonly located: Map<string, LocatedDeclaration>;

  constructor(located: Map<string, LocatedDeclaration>) {
    this.located = new Map([...located].map(([n, d]) => [n, { ...d, methods: shared(d.methods) }]));
  }

  get(name: string): LocatedDeclaration | undefined {
    return this.located.get(name);
  }

  entries(): Iterable<[string, { from: string; methods: string[] }]> {
    return this.located.entries();
  }
}
