import type { PhpNode } from '../php/ast';
import { PhpFatal } from '../runtime/convert';
import { checkArrayEntries, unitsOf } from '../runtime/work-meter';
import { PhpArray, Unknown, type Value } from '../runtime/values';
import type { InterpreterCore } from './interpreter-core';

/** A call's arguments, evaluated: spread (`...$a`) and named ones (matched to `paramNames`) included. */
export function evalArgs(it: InterpreterCore, args: PhpNode[] | undefined, paramNames?: readonly string[]): Value[] {
  // Plain arguments (the usual case): map() sizes the list exactly, and route calls keep theirs.
  if (args && !args.some((a) => a && (a.kind === 'variadic' || a.kind === 'namedargument'))) {
    return args.map((a) => (a ? it.eval(a) : new Unknown('the argument could not be parsed')));
  }
  const out: Value[] = [];
  for (const a of args ?? []) {
    // php-parser leaves a null argument where it recovered from a syntax error (`f(]`).
    if (!a) out.push(new Unknown('the argument could not be parsed'));
    else if (a.kind === 'variadic') {
      const v = it.eval(a.what);
      if (v instanceof PhpArray) {
        checkArrayEntries(out.length + v.size, 'the spread');
        it.charge(unitsOf(v));
        for (const x of v.values()) out.push(x);
      }
      else out.push(new Unknown('spread of an unknown value'));
    } else if (a.kind === 'namedargument') {
      const idx = paramNames?.indexOf(String(a.name)) ?? -1;
      const v = it.eval(a.value);
      if (idx < 0) throw new PhpFatal('Error', `Unknown named parameter $${a.name}`);
      while (out.length < idx) out.push(undefined as unknown as Value);
      out[idx] = v;
    } else {
      out.push(it.eval(a));
    }
  }
  return out;
}
