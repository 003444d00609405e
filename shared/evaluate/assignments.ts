import type { PhpNode } from '../php/ast';
import { nodeOffset } from '../php/parse';
import { REQUEST_METHODS, methodsIn } from '../runtime/methods';
import { DYNAMIC_KEY_PREFIX, assignmentOrigin, literalOrigin as makeLiteralOrigin, type AssignmentOrigin, type EntryOriginInfo, type EntryPlace, type LiteralOrigin } from '../library/records';
import { movedBy, shiftEntry } from './places';
import { Diverge, at } from '../library/route-library';
import { PhpFatal, isNumericString, toInt, toKey, toPhpString } from '../runtime/convert';
import { checkArrayEntries, unitsOf } from '../runtime/work-meter';
import type { RecordedWrite } from './statement-effect';
import { atLeast, isPhp8 } from '../runtime/php-version';
import { EMPTY_LITERAL_NEXT, PerMethod, PhpArray, PhpClosure, Unknown, shareValue, type Key, type Value } from '../runtime/values';
import { describeKind, type InterpreterCore } from './interpreter-core';
import { binary, lift } from './operators';
import { assignServer, globalsArray, readVariable, setVariable, variableName, writeScope } from './variables';

/*
 * Assignments and arrays: writes into variables and array elements (with the origins of
 * `$route[...] = ...` entries), reads of elements, array literals.
 */

/** Entries from which copying a shared array reads the clock (see writableCopy). */
const LARGE_COPY = 4096;

/**
 * The array to write into. Copying a shared one is not charged in steps: whether it is shared
 * also depends on the checkpoints an editor took (their variables share the arrays), and an
 * evaluation resumed from one must count the steps a fresh one does. A large copy reads the
 * clock instead, so that a loop of copies meets the time budget at once.
 */
function writableCopy(it: InterpreterCore, arr: PhpArray): PhpArray {
  if (arr.isShared && arr.size >= LARGE_COPY && it.deadline !== Infinity) {
    it.nextClockReading = it.steps;
    it.readClock();
  }
  return arr.writable();
}

/** Assigns to any writable expression: variable, `$a[..]` chains, `list()`. */
export function assignTo(it: InterpreterCore, target: PhpNode, value: Value): void {
  switch (target.kind) {
    case 'variable': {
      const name = variableName(it, target);
      if (name instanceof Unknown) return;
      setVariable(it, name, shareValue(value));
      return;
    }
    case 'offsetlookup':
      if (target.what?.kind === 'variable' && target.what.name === '_SERVER') {
        assignServer(it, target, value);
        return;
      }
      assignOffset(it, target, value, undefined);
      return;
    case 'list':
    case 'array': {
      let i = 0;
      for (const item of target.items ?? []) {
        if (!item) {
          i++;
          continue;
        }
        const entry = item.kind === 'entry' ? item : { key: null, value: item };
        const key = entry.key ? toKey(it.eval(entry.key)) : i++;
        const element = value instanceof PhpArray && !(key instanceof Unknown) ? (value.get(key) ?? null) : new Unknown('destructuring of an unknown value');
        assignTo(it, entry.value, element);
      }
      return;
    }
    case 'staticlookup':
    case 'propertylookup':
      noteRouterStateWrite(it, target);
      return;
    default:
      it.problem('unsupported', `assignment to ${describeKind(target.kind)} is not evaluated`, it.span(target));
  }
}

/** Reads a container for writing into it: no warnings, undefined when absent. */
function readForWrite(it: InterpreterCore, node: PhpNode): Value | undefined {
  if (node.kind === 'variable') {
    const name = variableName(it, node);
    if (name instanceof Unknown) return name;
    if (name === 'GLOBALS') return globalsArray(it);
    return writeScope(it, name).vars.get(name);
  }
  if (node.kind === 'offsetlookup') {
    const container = readForWrite(it, node.what);
    if (!node.offset) return undefined;
    const key = it.eval(node.offset);
    return lift(it, [container ?? null, key], ([c, k]) => {
      if (!(c instanceof PhpArray)) return c instanceof Unknown ? c : null;
      const kk = toKey(k);
      if (kk instanceof Unknown) return kk;
      return c.get(kk) ?? null;
    });
  }
  return it.eval(node);
}

/**
 * @param nested the write is into an element of this container's element (`$route['x']['get'] = …`
 *   writes `$route['x']`): the entry keeps the origin it has, else takes the assignment's, and
 *   is not a second declaration of its key.
 */
function assignOffset(it: InterpreterCore, target: PhpNode, value: Value, origin: AssignmentOrigin | undefined, nested = false, dynamicKey?: () => string): void {
  const what: PhpNode = target.what;
  // $GLOBALS['name'] = ... writes the global variable.
  if (what.kind === 'variable' && what.name === 'GLOBALS' && target.offset) {
    const name = toPhpString(it.eval(target.offset), it);
    if (name instanceof Unknown) return;
    if (it.globals.mask !== it.mask) throw new Diverge('a global is written under some request methods only');
    it.globals.vars.set(name, shareValue(value));
    return;
  }
  const key: Value | undefined = target.offset ? it.eval(target.offset) : undefined;
  // `$this->uri->segments[1] = …`: into an object's property, which is not written here.
  if (noteRouterStateWrite(it, what)) return;
  const container = readForWrite(it, what);
  const updated = writeElement(it, container, key, value, origin, nested, dynamicKey);
  if (what.kind === 'offsetlookup' && what.what.kind === 'variable' && what.what.name === 'GLOBALS' && what.offset) {
    const name = toPhpString(it.eval(what.offset), it);
    if (name instanceof Unknown) return;
    if (it.globals.mask !== it.mask) throw new Diverge('a global is written under some request methods only');
    it.globals.vars.set(name, updated);
    return;
  }
  if (what.kind === 'variable' || what.kind === 'offsetlookup') {
    if (what.kind === 'variable') {
      const name = variableName(it, what);
      if (name instanceof Unknown) return;
      setVariable(it, name, updated);
    } else {
      // A verb array (`$route['x']['get'] = …`): its entry in $route is declared by this assignment.
      assignOffset(it, what, updated, origin, true);
    }
  }
}

/**
 * `$container[$key] = $value` on a value; returns the updated container.
 * @param dynamicKey where an entry whose key cannot be known stands (`$route[...]` only; see DYNAMIC_KEY_PREFIX) */
function writeElement(it: InterpreterCore, container: Value | undefined, key: Value | undefined, value: Value, origin: AssignmentOrigin | undefined, nested = false, dynamicKey?: () => string): Value {
  if (container instanceof PerMethod || key instanceof PerMethod || value instanceof PerMethod) {
    const by: Value[] = REQUEST_METHODS.map(() => null);
    for (const m of methodsIn(it.mask)) {
      // One array becoming one per method: each must be written as its own copy.
      const own = container === undefined ? undefined : container instanceof PerMethod ? container.byMethod[m] : shareValue(container);
      by[m] = writeElement(it, 
        own,
        key === undefined ? undefined : at(key, m),
        at(value, m),
        origin,
        nested,
        dynamicKey,
      );
    }
    return new PerMethod(by);
  }
  if (container instanceof Unknown) return container;
  let arr: PhpArray;
  if (container === undefined || container === null) arr = new PhpArray();
  else if (container instanceof PhpArray) arr = writableCopy(it, container);
  else if (container === false) {
    arr = new PhpArray();
  } else if (typeof container === 'string') {
    // `$route['x'] = 'a'; $route['x']['post'] = 'b';`: PHP 8.1 on throws for a non-numeric offset (7 warned and wrote at 0).
    if (typeof key === 'string' && !isNumericString(key) && atLeast(it.options.phpVersion, 8, 1)) throw new PhpFatal('TypeError', 'Cannot access offset of type string on string');
    return new Unknown('writing into a string offset is not evaluated');
  } else {
    throw new PhpFatal('Error', 'Cannot use a scalar value as an array');
  }
  const stored = shareValue(value);
  if (key === undefined) {
    arr.append(stored, origin);
    return arr;
  }
  const k = toKey(key);
  if (k instanceof Unknown) {
    it.problem('unknown-value', `an array key cannot be known statically (${k.reason})`, (origin && placedHere(it, origin).keySpan) ?? { start: it.base, end: it.base });
    // A route of $route whose path is unknown keeps its place in the table, as an unknown route.
    if (dynamicKey !== undefined && origin) arr.set(dynamicKey(), stored, origin);
    return arr;
  }
  if (origin && nested) {
    arr.set(k, stored, (arr.originOf(k) as EntryOriginInfo | undefined) ?? origin);
    return arr;
  }
  if (origin) {
    let previous = arr.originOf(k) as EntryOriginInfo | undefined;
    // The same assignment again (a loop): not a second declaration, and no chain as long as the loop.
    if (previous?.kind === 'assignment' && samePlaceHere(it, previous, origin)) previous = previous.replaced;
    if (previous && previous.kind !== 'literal') origin = it.options.replay ? it.options.replay.replacing(origin, previous) : assignmentOrigin({ ...origin, replaced: previous });
    it.recordedWrites?.push({ key: k, value: stored, origin });
  }
  arr.set(k, stored, origin);
  return arr;
}

/**
 * Writes again the entry a top-level `$route[literal] = literal;` wrote when it was recorded
 * (see isLiteralRouteWrite), as writeElement() writes it into an array; false, writing nothing,
 * where evaluating it could do otherwise: `$route` is not an array, or the key holds another
 * declaration's entry (the origin would then record what it replaces).
 */
export function replayRouteWrite(it: InterpreterCore, write: RecordedWrite): boolean {
  const container = writeScope(it, 'route').vars.get('route');
  if (write.eachMethod ? !(container instanceof PerMethod) : !(container instanceof PhpArray)) return false;
  // Placed where its statement is now before it is compared with what the key holds, as evalAssign places it.
  const anchor = write.origin.anchor;
  if (anchor && anchor.start !== it.base) it.noteMoved(anchor, it.base);
  if (container instanceof PhpArray) {
    if (!writesAnew(it, container, write)) return false;
    setVariable(it, 'route', writtenCopy(it, container, write));
    return true;
  }
  // One value per method, written as writeElement() writes each (every method's, replays running
  // under all): an array, or none yet (map() leaves null under a method without routes).
  const values = (container as PerMethod).byMethod;
  const methods = methodsIn(it.mask);
  for (const m of methods) {
    const own = values[m];
    if (own instanceof PhpArray ? !writesAnew(it, own, write) : !(own === undefined || own === null || own === false)) return false;
  }
  const by: Value[] = REQUEST_METHODS.map(() => null);
  for (const m of methods) {
    const own = values[m];
    by[m] = writtenCopy(it, own instanceof PhpArray ? own : undefined, write);
  }
  setVariable(it, 'route', new PerMethod(by));
  return true;
}

/** Whether `write` into `array` makes an entry of its own (the key holds no other declaration's entry). */
function writesAnew(it: InterpreterCore, array: PhpArray, write: RecordedWrite): boolean {
  let previous = array.originOf(write.key) as EntryOriginInfo | undefined;
  if (previous?.kind === 'assignment' && samePlaceHere(it, previous, write.origin)) previous = previous.replaced;
  return !previous || previous.kind === 'literal';
}

/** `array` (a new one for none) with the write's entry, as writeElement() writes it. */
function writtenCopy(it: InterpreterCore, array: PhpArray | undefined, write: RecordedWrite): PhpArray {
  const arr = array ? writableCopy(it, array) : new PhpArray();
  arr.set(write.key, shareValue(write.value), write.origin);
  return arr;
}

export function readOffset(it: InterpreterCore, node: PhpNode, quiet: boolean): Value {
  const container = quiet ? quietRead(it, node.what) : it.eval(node.what);
  if (!node.offset) throw new PhpFatal('Error', 'Cannot use [] for reading');
  const key = it.eval(node.offset);
  return lift(it, [container, key], ([c, k]) => readElement(it, c, k, quiet));
}

export function readElement(it: InterpreterCore, c: Value, k: Value, quiet: boolean): Value {
  if (c instanceof Unknown) return c;
  if (c instanceof PhpArray) {
    const key = toKey(k);
    if (key instanceof Unknown) return key;
    const v = c.get(key);
    if (v === undefined) {
      if (!quiet) it.warn(isPhp8(it.options.phpVersion) ? `Undefined array key ${typeof key === 'number' ? key : `"${key}"`}` : typeof key === 'number' ? `Undefined offset: ${key}` : `Undefined index: ${key}`);
      return null;
    }
    return v;
  }
  if (typeof c === 'string') {
    const i = toInt(k);
    if (typeof i !== 'number') return i;
    const idx = i < 0 ? c.length + i : i;
    if (idx < 0 || idx >= c.length) {
      if (!quiet) it.warn(`Uninitialized string offset ${i}`);
      return quiet ? null : '';
    }
    return c[idx];
  }
  if (c instanceof PhpClosure) throw new PhpFatal('Error', 'Cannot use object of type Closure as array');
  if (!quiet) it.warn(`Trying to access array offset on value of type ${c === null ? 'null' : typeof c === 'boolean' ? 'bool' : typeof c === 'number' ? 'int' : 'float'}`);
  return null;
}

/** Reads without warnings, as isset()/empty()/?? do. */
export function quietRead(it: InterpreterCore, node: PhpNode): Value {
  if (node.kind === 'variable') return readVariable(it, node, true);
  if (node.kind === 'offsetlookup') return readOffset(it, node, true);
  return it.eval(node);
}

export function evalIsset(it: InterpreterCore, node: PhpNode): Value {
  let result: Value = true;
  for (const v of node.variables ?? []) {
    const val = quietRead(it, v);
    const r = lift(it, [val], ([x]) => (x instanceof Unknown ? (x.isSet ? true : x) : x !== null));
    if (r === false) return false;
    if (r !== true) result = r;
  }
  return result;
}

/** `$left = $right` and the compound assignments; `byReference`: `$left = &$right`, written as this value. */
export function evalAssign(it: InterpreterCore, node: PhpNode, byReference?: Unknown): Value {
  const op: string = byReference ? '=' : node.operator;
  const left: PhpNode = node.left;
  let value: Value;
  if (byReference) {
    value = byReference;
  } else if (op === '=') {
    value = it.eval(node.right);
  } else if (op === '??=') {
    const cur = quietRead(it, left);
    if (cur !== null && !(cur instanceof Unknown)) return cur;
    value = it.eval(node.right);
  } else {
    const cur = quietRead(it, left);
    const right = it.eval(node.right);
    value = binary(it, op.slice(0, -1), cur, right);
  }
  if (left.kind === 'offsetlookup' && op === '=' && !(left.what?.kind === 'variable' && left.what.name === '_SERVER')) {
    // The same object as the last evaluation's when nothing about it changed but its place (see
    // ReplayCache.keptOrigin). Not in a statement whose text is repeated: its occurrences share
    // their nodes, and one's kept origin may be another's entry already in `$route` (the second
    // of two identical lines then read as the first run again, not as replacing it).
    const movable = it.callDepth === 0 && it.statementUnique && !it.source;
    // In an included file, its own cache's, kept where they were made (an included file's places are not
    // moved); not in a function it calls, whose body may be another file's.
    const cache = it.source ? (it.callDepth === 0 ? it.includedOrigins : undefined) : it.statementRepeated ? undefined : it.options.replay;
    // Found without making a fresh origin first: a large file's `$route[...]` lines run again on every edit.
    let origin = cache?.keptOrigin(node, it.base, movable, it.conditional, it.branches);
    if (!origin) {
      const parts = {
        placed: { span: it.span(node), keySpan: left.offset ? it.span(left.offset) : undefined, valueSpan: it.span(node.right) },
        conditional: it.conditional,
        branches: it.branches,
      };
      // A recorded statement's is anchored where it is, as kept ones are, to be placed where a replay finds it (see replayRouteWrite).
      origin = cache ? cache.keep(node, parts, it.base) : assignmentOrigin(it.recording ? { ...parts, anchor: { start: it.base } } : parts);
    }
    if (origin.anchor && origin.anchor.start !== it.base) it.noteMoved(origin.anchor, it.base);
    const intoRoutes = left.what?.kind === 'variable' && left.what.name === 'route' && writeScope(it, 'route') === it.globals;
    // Unique per assignment: its place, in the file it is written in (made only for a key that cannot be known).
    const start = it.base + nodeOffset(node);
    assignOffset(it, left, value, origin, false, intoRoutes ? () => `${DYNAMIC_KEY_PREFIX}a${it.source ? `${it.source.path}:` : ''}${start}` : undefined);
  } else {
    assignTo(it, left, value);
  }
  return value;
}

/** The variable a written expression starts from (`$this` of `$this->uri->segments[1]`), if it is one. */
export function rootVariableOf(node: PhpNode | null | undefined): string | undefined {
  let n = node;
  while (n && (n.kind === 'offsetlookup' || n.kind === 'propertylookup' || n.kind === 'nullsafepropertylookup' || n.kind === 'staticlookup')) n = n.what;
  return n?.kind === 'variable' && typeof n.name === 'string' ? n.name : undefined;
}

/**
 * A write into an object's property, which objects not being evaluated is not made; true when
 * `target` is one. Into `$this` (`$this->uri->uri_string = 'front'`) it is said: routes.php runs
 * inside CodeIgniter's router, and a file changing the router's state routes requests otherwise
 * than its table says (a limit of the analysis, not dropped silently).
 */
export function noteRouterStateWrite(it: InterpreterCore, target: PhpNode): boolean {
  if (target.kind !== 'propertylookup' && target.kind !== 'nullsafepropertylookup' && target.kind !== 'staticlookup' && !(target.kind === 'offsetlookup' && isPropertyPath(target))) return false;
  if (rootVariableOf(target) === 'this') {
    it.problem('evaluation-limit', "this writes the router's state ($this->…), which is not followed: CodeIgniter may route requests otherwise than the routes say", it.span(target), false, true);
  }
  return true;
}

/** `$a->b[1]`: an offset into an object's property somewhere along the path. */
function isPropertyPath(node: PhpNode): boolean {
  for (let n: PhpNode | undefined = node; n; n = n.what) if (n.kind === 'propertylookup' || n.kind === 'nullsafepropertylookup' || n.kind === 'staticlookup') return true;
  return false;
}

/**
 * `$a = &$b;`, `$route['x'] = &$target;`: references are not followed (a later write to one side
 * writes the other), so what is written is not known; the entry exists, not dropped.
 */
export function assignByReference(it: InterpreterCore, node: PhpNode): Value {
  return evalAssign(it, node, new Unknown('assigned by reference (=&), which is not followed', it.span(node)));
}

/**
 * `$route = Route::map($route);` as a statement: the library's result is an array nobody else
 * holds (the statement's own value is dropped), so it is stored without marking it shared,
 * which would copy every method's table on the next `$route[...] = ...`. Used as a value
 * (`$a[] = $route = Route::map(...)`), the assignment goes the usual way.
 */
export function assignFresh(it: InterpreterCore, node: PhpNode): void {
  const value = it.eval(node.right);
  const name = variableName(it, node.left);
  if (!(name instanceof Unknown)) setVariable(it, name, value);
}

export function evalIncrement(it: InterpreterCore, node: PhpNode): Value {
  const cur = quietRead(it, node.what);
  const next = binary(it, node.type === '+' ? '+' : '-', cur === null && node.type === '+' ? 0 : cur, 1);
  assignTo(it, node.what, next);
  return node.kind === 'pre' ? next : cur;
}

export function evalArray(it: InterpreterCore, node: PhpNode): Value {
  // `[]` is PHP's shared empty array, whose next key is 0 (`[]; $a[-3] = 1; $a[] = 2` gives 0).
  const out = (node.items ?? []).length === 0 ? new PhpArray(undefined, EMPTY_LITERAL_NEXT) : new PhpArray();
  for (const item of node.items ?? []) {
    if (!item) continue;
    const entry: PhpNode = item.kind === 'entry' ? item : { kind: 'entry', loc: item.loc, key: null, value: item, unpack: false };
    const value = it.eval(entry.value);
    if (value instanceof PerMethod) throw new Diverge('an array element differs by request method');
    if (entry.unpack) {
      if (value instanceof PhpArray) {
        checkArrayEntries(out.size + value.size, 'the spread');
        it.charge(unitsOf(value));
        for (const [k, v] of value.entries()) {
          if (typeof k === 'number') out.append(shareValue(v));
          else out.set(k, shareValue(v));
        }
      } else {
        return new Unknown('spread of an unknown value', it.span(item));
      }
      continue;
    }
    if (entry.key) {
      const key = it.eval(entry.key);
      if (key instanceof PerMethod) throw new Diverge('an array key differs by request method');
      const k = toKey(key);
      if (k instanceof Unknown) {
        it.problem('unknown-value', `an array key cannot be known statically (${k.reason})`, it.span(entry.key));
        continue;
      }
      out.set(k, shareValue(value), literalOrigin(it, makeLiteralOrigin({ span: it.span(item), keySpan: it.span(entry.key), valueSpan: it.span(entry.value) })));
    } else {
      out.append(shareValue(value), literalOrigin(it, makeLiteralOrigin({ span: it.span(item), valueSpan: it.span(entry.value) })));
    }
  }
  return out;
}

/** `$list[$key] = $item`, for a foreach by reference (the element and the variable are one in PHP). */
export function writeBack(it: InterpreterCore, list: PhpNode, key: Key, item: PhpNode): void {
  const updated = writeElement(it, readForWrite(it, list), key, shareValue(quietRead(it, item)), undefined);
  assignTo(it, list, updated);
}

export function unset(it: InterpreterCore, node: PhpNode): void {
  if (node.kind === 'variable' && typeof node.name === 'string') {
    // Unsetting a reference (`global $x`, `use (&$x)`) only unbinds the local name, as in PHP.
    if (it.scope.refs.delete(node.name) || it.scope.globalNames.delete(node.name)) return;
    it.scope.vars.delete(node.name);
    return;
  }
  if (node.kind === 'offsetlookup' && node.offset) {
    const container = readForWrite(it, node.what);
    const key = it.eval(node.offset);
    if (container instanceof PerMethod || key instanceof PerMethod) throw new Diverge('unset() of a value that differs by request method');
    if (container instanceof PhpArray) {
      const k = toKey(key);
      if (k instanceof Unknown) return;
      const w = writableCopy(it, container);
      w.delete(k);
      assignTo(it, node.what, w);
    }
  }
}

/** An array literal's entry origin, anchored to the statement being recorded for replay, if any (see places.ts). */
function literalOrigin(it: InterpreterCore, origin: LiteralOrigin): LiteralOrigin {
  return it.recording ? makeLiteralOrigin({ ...origin, anchor: it.recording }) : origin;
}

/** Where an entry's origin is in the text being evaluated (a kept assignment's may have been made elsewhere: see places.ts). */
function placedHere(it: InterpreterCore, origin: AssignmentOrigin | LiteralOrigin): EntryPlace {
  if (origin.kind === 'literal') return origin;
  return shiftEntry(origin.placed, movedBy(it.moved, origin.anchor));
}

/** Whether two assignments are at one place of the text being evaluated (the same one, run again by a loop). */
function samePlaceHere(it: InterpreterCore, a: AssignmentOrigin, b: AssignmentOrigin): boolean {
  const x = placedHere(it, a).span;
  const y = placedHere(it, b).span;
  return x.start === y.start && x.end === y.end;
}
