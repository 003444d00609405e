/**
 * The indexer's recovery path: classes, their methods and `Route::named(...)` calls found on the
 * token stream of `php-lexer.ts`, for files php-parser rejects. Brace depth decides what a class
 * body holds; a method whose braces are broken is still found when it has a visibility keyword
 * (only class members have one). Linear in the number of tokens, no recursion, never throws.
 */

import { lexPhp, type Token } from './php-lexer';
import {
  isNamedMethodName,
  isRouteClassName,
  normalizeParent,
  finishClass,
  recordMethod,
  type ControllerInfo,
  type NamedUsage,
} from './php-index-model';

const MODIFIERS = new Set(['public', 'protected', 'private', 'static', 'abstract', 'final', 'var', 'readonly']);
const VISIBILITY = new Set(['public', 'protected', 'private']);
const OPENERS = new Set(['(', '[', '{', '${', '#[']);
const CLOSERS = new Set([')', ']', '}']);
const MEMBER_ACCESS = new Set(['::', '->', '?->']);
/** How far an unclosed `Route::named(` call is followed before it is taken to end. */
const MAX_CALL_TOKENS = 4096;

interface ClassContext {
  /** Brace depth inside the body. */
  bodyDepth: number;
  /** Null for bodies whose methods are not indexed: anonymous classes, interfaces, traits, enums. */
  info: ControllerInfo | null;
}

function isPunct(t: Token | undefined, text: string): boolean {
  return t !== undefined && t.type === 'punct' && t.text === text;
}
function isPlainName(t: Token | undefined): t is Token {
  return t !== undefined && t.type === 'name' && t.text.indexOf('\\') < 0;
}

export function indexLexically(text: string, shortTags = false): { controllers: ControllerInfo[]; namedUsages: NamedUsage[] } {
  const tokens = lexPhp(text, shortTags);
  const controllers: ControllerInfo[] = [];
  const namedUsages: NamedUsage[] = [];
  /** The classes whose public `__construct` was met (see finishClass). */
  const constructed = new Set<ControllerInfo>();
  const contexts: ClassContext[] = [];
  let depth = 0;
  /** The body the next `{` opens: a class (info), a body not indexed (null), or none (undefined). */
  let pending: ControllerInfo | null | undefined;
  let lastClosed: ControllerInfo | null = null;
  let matched: Int32Array | undefined;

  const n = tokens.length;
  for (let i = 0; i < n; i++) {
    const t = tokens[i];
    if (t.type === 'punct') {
      if (t.text === '{' || t.text === '${') {
        depth++;
        if (pending !== undefined) {
          contexts.push({ bodyDepth: depth, info: pending });
          pending = undefined;
          lastClosed = null;
        }
      } else if (t.text === '}') {
        const top = contexts[contexts.length - 1];
        if (top !== undefined && top.bodyDepth === depth) {
          contexts.pop();
          lastClosed = top.info;
          if (top.info) top.info.bodyEnd = t.start;
        }
        if (depth > 0) depth--;
      } else if (t.text === ';') {
        pending = undefined;
      }
      continue;
    }
    if (t.type !== 'name') continue;
    const prev = tokens[i - 1];
    if (prev !== undefined && prev.type === 'punct' && MEMBER_ACCESS.has(prev.text)) continue;
    const lower = t.text.toLowerCase();
    switch (lower) {
      case 'class': {
        if (prev !== undefined && prev.type === 'name' && prev.text.toLowerCase() === 'new') {
          pending = null; // anonymous class
          break;
        }
        const nameTok = tokens[i + 1];
        if (!isPlainName(nameTok)) break;
        const info: ControllerInfo = { className: nameTok.text, classSpan: { start: nameTok.start, end: nameTok.end }, methods: [], hasRemap: false };
        const ext = tokens[i + 2];
        const parent = tokens[i + 3];
        if (ext !== undefined && ext.type === 'name' && ext.text.toLowerCase() === 'extends' && parent !== undefined && parent.type === 'name') {
          info.extends = normalizeParent(parent.text);
        }
        controllers.push(info);
        pending = info;
        i++;
        break;
      }
      case 'interface':
      case 'trait':
        if (isPlainName(tokens[i + 1])) {
          pending = null;
          i++;
        }
        break;
      case 'enum': {
        const after = tokens[i + 2];
        if (isPlainName(tokens[i + 1]) && after !== undefined && (isPunct(after, '{') || isPunct(after, ':') || (after.type === 'name' && after.text.toLowerCase() === 'implements'))) {
          pending = null;
          i++;
        }
        break;
      }
      case 'function':
        i = functionDeclaration(i);
        break;
      case 'use': {
        // `use A, B;` or `use A { … }` in a class body: traits (a `use` elsewhere imports a namespace or binds a closure's variables).
        const ctx = contexts[contexts.length - 1];
        if (!ctx?.info || depth !== ctx.bodyDepth) break;
        const traits = (ctx.info.traits ??= []);
        let k = i + 1;
        for (; k < n && tokens[k].type === 'name'; k++) {
          traits.push(normalizeParent(tokens[k].text));
          if (!isPunct(tokens[k + 1], ',')) break;
          k++;
        }
        break;
      }
      default:
        if (isRouteClassName(t.text)) namedCall(i);
    }
  }
  for (const info of controllers) finishClass(info, constructed.has(info));
  return { controllers, namedUsages };

  /** A `function` keyword at `i`; returns the index to continue from. */
  function functionDeclaration(i: number): number {
    let j = i + 1;
    if (isPunct(tokens[j], '&')) j++;
    const nameTok = tokens[j];
    if (nameTok === undefined || nameTok.type !== 'name' || nameTok.text.indexOf('\\') >= 0 || !isPunct(tokens[j + 1], '(')) return i;
    let visibility: string | undefined;
    for (let k = i - 1; k >= 0; k--) {
      const m = tokens[k];
      if (m.type !== 'name') break;
      const word = m.text.toLowerCase();
      if (!MODIFIERS.has(word)) break;
      if (VISIBILITY.has(word) && visibility === undefined) visibility = word;
    }
    const ctx = contexts[contexts.length - 1];
    let target: ControllerInfo | null | undefined;
    if (ctx !== undefined && depth === ctx.bodyDepth) target = ctx.info;
    else if (visibility !== undefined) target = ctx !== undefined ? ctx.info : lastClosed;
    if (!target) return i;
    const { params, end } = parameters(j + 1);
    if (recordMethod(target, { name: nameTok.text, span: { start: nameTok.start, end: nameTok.end }, visibility, params })) constructed.add(target);
    return end;
  }

  /** The parameter list whose `(` is at `open`; stops at its `)` or, when broken, at a `{` or `;` outside brackets. */
  function parameters(open: number): { params: { optional: boolean; variadic: boolean }[]; end: number } {
    const params: { optional: boolean; variadic: boolean }[] = [];
    let current: { optional: boolean; variadic: boolean; empty: boolean } = { optional: false, variadic: false, empty: true };
    let level = 0;
    let k = open + 1;
    const flush = (): void => {
      if (!current.empty) params.push({ optional: current.optional, variadic: current.variadic });
      current = { optional: false, variadic: false, empty: true };
    };
    for (; k < n; k++) {
      const t = tokens[k];
      if (t.type === 'punct') {
        if (level === 0) {
          if (t.text === ')' || t.text === '{' || t.text === ';' || t.text === '?>') break;
          if (t.text === ',') {
            flush();
            continue;
          }
          if (t.text === '=') current.optional = true;
          else if (t.text === '...') current.variadic = true;
        }
        if (OPENERS.has(t.text)) level++;
        else if (CLOSERS.has(t.text) && level > 0) level--;
      }
      current.empty = false;
    }
    flush();
    // Continue after the `)`; a `{` or `;` that ended a broken list is read again by the main loop.
    return { params, end: isPunct(tokens[k], ')') ? k : k - 1 };
  }

  /** `Route` at `i`: records the call when it is `Route::named(`. */
  function namedCall(i: number): void {
    const nameTok = tokens[i + 2];
    if (!isPunct(tokens[i + 1], '::') || nameTok === undefined || nameTok.type !== 'name' || !isNamedMethodName(nameTok.text)) return;
    const open = tokens[i + 3];
    if (!isPunct(open, '(')) return;
    const closers = matchBrackets();
    const close = closers[i + 3];
    // Walk the call's top level, jumping over bracketed groups: the first argument's extent, and
    // the end of the call. An unclosed call ends before a `;`, `?>` or unclosed bracket at its
    // top level, or after a bounded number of tokens (so thousands of unclosed calls stay linear).
    const stop = close >= 0 ? close : Math.min(n, i + 4 + MAX_CALL_TOKENS);
    let end = close >= 0 ? tokens[close].end : open.end;
    const arg: { first: number; last: number; count: number } = { first: -1, last: -1, count: 0 };
    let collecting = true;
    for (let k = i + 4; k < stop; k++) {
      const t = tokens[k];
      let last = k;
      if (t.type === 'punct') {
        if (close < 0 && (t.text === '?>' || t.text === ';' || CLOSERS.has(t.text))) break;
        if (t.text === ',') {
          collecting = false;
          if (close >= 0) break;
          end = t.end;
          continue;
        }
        if (OPENERS.has(t.text)) {
          if (closers[k] < 0) break;
          last = closers[k];
        }
      }
      if (collecting) {
        if (arg.first < 0) arg.first = k;
        arg.last = last;
        arg.count += last === k ? 1 : 2;
      }
      if (close < 0) end = tokens[last].end;
      k = last;
    }
    const usage: NamedUsage = { callSpan: { start: tokens[i].start, end } };
    // A named argument `name: 'x'`: the expression is what follows the colon.
    if (arg.count >= 3 && isPlainName(tokens[arg.first]) && isPunct(tokens[arg.first + 1], ':')) {
      arg.first += 2;
      arg.count -= 2;
    }
    if (arg.first >= 0 && arg.count > 0) {
      usage.argSpan = { start: tokens[arg.first].start, end: tokens[arg.last].end };
      const only = tokens[arg.first];
      if (arg.count === 1 && only.type === 'string' && only.literal) {
        usage.name = only.text;
        usage.nameSpan = { start: only.contentStart, end: only.contentEnd };
      }
    }
    namedUsages.push(usage);
  }

  /** For each opening bracket, the index of its closing one (-1 when unclosed); computed once, on demand. */
  function matchBrackets(): Int32Array {
    if (matched) return matched;
    const result = new Int32Array(n).fill(-1);
    const open: number[] = [];
    for (let k = 0; k < n; k++) {
      const t = tokens[k];
      if (t.type !== 'punct') continue;
      if (OPENERS.has(t.text)) open.push(k);
      else if (CLOSERS.has(t.text) && open.length > 0) result[open.pop() as number] = k;
    }
    matched = result;
    return result;
  }
}
