/**
 * Indexes one PHP file of a CodeIgniter 3 application for the workspace: the classes it declares
 * (controllers, with the methods a URL can reach) and every `Route::named(...)` call (controllers,
 * views, libraries...). Pure: text in, plain data out; never throws.
 *
 * Two paths give the same result on valid files:
 * - php-parser parses the whole file (one reused instance). Without syntax errors the result comes
 *   from its syntax tree (`recovered: false`).
 * - When the file has syntax errors, or php-parser throws on it (it does on some broken input even
 *   with suppressErrors, and with RangeError on very deep nesting), a lexical scan recovers what it
 *   can (`recovered: true`, see php-index-lexical.ts): a broken method costs only itself.
 *
 * Both paths are tested to give identical results on files php-parser accepts. The lexical scan
 * alone (`{ parser: false }`) is about ten times faster than php-parser, which dominates the cost of
 * the default path (a 200-line controller: php-parser ~2-3 ms, the lexical scan ~0.2-0.3 ms).
 *
 * Offsets are UTF-16 code unit offsets into the text, as php-parser reports them.
 */

import { detached } from '../util/detached';
import type { Engine } from 'php-parser';
import { createPhpParser, type PhpParserLocation } from '../php/parse';
import type { PhpNode } from '../php/ast';
import { walkNodes } from '../php/walk';
import { indexLexically } from './php-index-lexical';
import {
  decodeStringContent,
  isNamedMethodName,
  isRouteClassName,
  normalizeParent,
  finishClass,
  recordMethod,
  type ControllerInfo,
  type NamedUsage,
  type PhpFileIndex,
} from './php-index-model';

export type { ControllerInfo, ControllerMethod, NamedUsage, OffsetSpan, PhpFileIndex } from './php-index-model';

let parser: Engine | undefined;

const CLASS_WORD = /\bclass[\s/#]/i;
const NAMED_WORD = /named[\s(/#]/i;

/**
 * Fast pre-check so a workspace scan can skip files: true when the text may contain a class or a
 * `Route::named` call. False only when it certainly holds neither (no PHP open tag, or neither
 * the `class` keyword nor `named` followed by what may precede its `(`).
 */
export function mayNeedIndexing(text: string): boolean {
  if (typeof text !== 'string' || text.indexOf('<?') < 0) return false;
  return CLASS_WORD.test(text) || NAMED_WORD.test(text);
}

export interface IndexOptions {
  /**
   * False skips php-parser and takes the lexical scan directly: about ten times faster (a
   * workspace-wide scan), the same result on files without syntax errors, `recovered` true.
   * Default true.
   */
  parser?: boolean;
  /**
   * Read a bare `<?` as an open tag (PHP's short_open_tag, on by default and common in older
   * controllers); lexical scan only. Default false.
   */
  shortTags?: boolean;
}

export function indexPhpFile(text: string, options?: IndexOptions): PhpFileIndex {
  if (typeof text !== 'string') return { controllers: [], namedUsages: [], recovered: true, recoveryReason: 'not a text' };
  let reason = 'the lexical scan was requested';
  if (options?.parser !== false) {
    let program: { children: PhpNode[]; errors: unknown[] } | undefined;
    try {
      parser ??= createPhpParser();
      program = parser.parseCode(text, 'file.php') as unknown as { children: PhpNode[]; errors: unknown[] };
    } catch (e) {
      // Start afresh next time: the exception may have left the instance in a bad state.
      parser = undefined;
      reason = e instanceof RangeError ? 'the file is nested too deeply for php-parser' : 'php-parser failed on the file';
    }
    if (program !== undefined) {
      const errors = Array.isArray(program.errors) ? program.errors.length : 0;
      if (errors === 0) {
        try {
          return { ...keptApart(indexTree(text, Array.isArray(program.children) ? program.children : [])), recovered: false };
        } catch {
          reason = 'the syntax tree could not be read';
        }
      } else {
        reason = `php-parser reported ${errors} syntax error${errors === 1 ? '' : 's'}`;
      }
    }
  }
  try {
    return { ...keptApart(indexLexically(text, options?.shortTags)), recovered: true, recoveryReason: reason };
  } catch {
    return { controllers: [], namedUsages: [], recovered: true, recoveryReason: `${reason}; the lexical scan failed` };
  }
}

/** The index's names as strings of their own: an index is kept long after its file's text (see detached). */
function keptApart<T extends Pick<PhpFileIndex, 'controllers' | 'namedUsages'>>(index: T): T {
  for (const c of index.controllers) {
    c.className = detached(c.className);
    if (c.extends !== undefined) c.extends = detached(c.extends);
    if (c.legacyConstructor !== undefined) c.legacyConstructor = detached(c.legacyConstructor);
    if (c.traits) c.traits = c.traits.map(detached);
    for (const m of c.methods) m.name = detached(m.name);
  }
  for (const u of index.namedUsages) if (u.name !== undefined) u.name = detached(u.name);
  return index;
}

/** A node's span: php-parser's own location (this index reads the parser's tree as it comes, uncompacted). */
function span(node: PhpNode): { start: number; end: number } | undefined {
  const loc = node.loc as unknown as PhpParserLocation | null;
  return loc ? { start: loc.start.offset, end: loc.end.offset } : undefined;
}

function indexTree(text: string, roots: PhpNode[]): { controllers: ControllerInfo[]; namedUsages: NamedUsage[] } {
  const controllers: ControllerInfo[] = [];
  const namedUsages: NamedUsage[] = [];
  walkNodes(roots, (node) => {
    switch (node.kind) {
      case 'encapsed':
        return false; // usages inside string interpolation are not indexed
      case 'class': {
        const info = classInfo(text, node);
        if (info) controllers.push(info);
        break;
      }
      case 'call': {
        const usage = namedUsage(text, node);
        if (usage) namedUsages.push(usage);
        break;
      }
    }
    return true;
  });
  controllers.sort((a, b) => a.classSpan.start - b.classSpan.start);
  namedUsages.sort((a, b) => a.callSpan.start - b.callSpan.start);
  return { controllers, namedUsages };
}

function classInfo(text: string, node: PhpNode): ControllerInfo | undefined {
  const nameNode = node.name as PhpNode | string | null;
  if (node.isAnonymous || nameNode === null || typeof nameNode !== 'object' || typeof nameNode.name !== 'string') return undefined;
  const classSpan = span(nameNode);
  if (!classSpan) return undefined;
  const info: ControllerInfo = { className: nameNode.name, classSpan, methods: [], hasRemap: false };
  const parent = node.extends as PhpNode | null;
  if (parent && typeof parent.name === 'string') info.extends = normalizeParent(parent.name);
  const body: PhpNode[] = Array.isArray(node.body) ? node.body : [];
  let constructed = false;
  for (const member of body) {
    if (member?.kind !== 'method') continue;
    const mName = member.name as PhpNode | null;
    if (!mName || typeof mName.name !== 'string') continue;
    const mSpan = span(mName);
    if (!mSpan) continue;
    const params: PhpNode[] = Array.isArray(member.arguments) ? member.arguments : [];
    const isConstructor = recordMethod(info, {
      name: mName.name,
      span: mSpan,
      visibility: member.visibility ? String(member.visibility) : undefined,
      params: params.map((p) => ({ optional: p.value != null, variadic: p.variadic === true })),
    });
    constructed ||= isConstructor;
  }
  const whole = span(node);
  if (whole && text[whole.end - 1] === '}') info.bodyEnd = whole.end - 1;
  finishClass(info, constructed);
  return info;
}

function namedUsage(text: string, node: PhpNode): NamedUsage | undefined {
  const what = node.what as PhpNode | null;
  if (!what || what.kind !== 'staticlookup') return undefined;
  const cls = what.what as PhpNode | null;
  const method = what.offset as PhpNode | null;
  if (!cls || cls.kind !== 'name' || typeof cls.name !== 'string' || !isRouteClassName(cls.name)) return undefined;
  if (!method || method.kind !== 'identifier' || typeof method.name !== 'string' || !isNamedMethodName(method.name)) return undefined;
  const callSpan = span(node);
  if (!callSpan) return undefined;
  const usage: NamedUsage = { callSpan };
  const args: PhpNode[] = Array.isArray(node.arguments) ? node.arguments : [];
  let arg: PhpNode | undefined = args[0];
  if (arg?.kind === 'namedargument' && arg.value && typeof arg.value === 'object') arg = arg.value as PhpNode;
  const argSpan = arg ? span(arg) : undefined;
  if (!arg || !argSpan) return usage;
  usage.argSpan = argSpan;
  if (arg.kind === 'string') {
    // Read the literal from the source: php-parser's own unescaping is not PHP's in corner cases.
    const prefix = text[argSpan.start] === 'b' || text[argSpan.start] === 'B' ? 1 : 0;
    const quote = text[argSpan.start + prefix];
    if ((quote === "'" || quote === '"') && argSpan.end - argSpan.start >= prefix + 2 && text[argSpan.end - 1] === quote) {
      const nameSpan = { start: argSpan.start + prefix + 1, end: argSpan.end - 1 };
      usage.name = decodeStringContent(text.slice(nameSpan.start, nameSpan.end), quote);
      usage.nameSpan = nameSpan;
    }
  }
  return usage;
}
