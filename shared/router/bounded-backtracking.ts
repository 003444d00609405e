import { RegExpParser, type AST } from '@eslint-community/regexpp';

/**
 * Steps one match may take before it gives up. PCRE stops the same way (pcre.backtrack_limit, a
 * million in PHP): `preg_match` then returns false and CodeIgniter's router moves on, as if the
 * route did not match. Legitimate route keys need a few hundred steps on a URI.
 */
export const MATCH_STEP_LIMIT = 100_000;

/** Thrown inside a match when its step budget is spent (never escapes `find`). */
class StepLimit extends Error {}

/** Continuation: the rest of the pattern, from `pos`. */
type Next = (pos: number) => boolean;
type Node = (pos: number, next: Next) => boolean;

interface State {
  input: string;
  /** Start and end of each capture group (index 2i, 2i+1), -1 when unset. */
  caps: Int32Array;
  steps: number;
}

const isWordChar = (s: string, i: number) => i >= 0 && i < s.length && /\w/.test(s[i]);

/**
 * A backtracking matcher with a step budget, for the JavaScript regex syntax that RE2 lacks
 * (look-arounds, back-references). It never runs longer than MATCH_STEP_LIMIT steps whatever
 * the pattern, where `RegExp` would take exponential time on `((a+)+)+\1$`. Semantics follow
 * JavaScript's, except that a back-reference to a group that did not take part fails, as in PCRE.
 */
export class BoundedMatcher {
  private readonly root: Node;
  private readonly groupCount: number;
  private state: State = { input: '', caps: new Int32Array(0), steps: 0 };

  /** `source` must be a valid JavaScript pattern (no flags); throws otherwise. */
  constructor(source: string) {
    const pattern = new RegExpParser({ ecmaVersion: 2024 }).parsePattern(source, 0, source.length, { unicode: false, unicodeSets: false });
    const groups = new Map<AST.CapturingGroup, number>();
    // Groups are numbered by their opening parenthesis, left to right.
    const collect = (n: AST.Node): void => {
      if (n.type === 'CapturingGroup') groups.set(n, groups.size + 1);
      for (const child of childrenOf(n)) collect(child);
    };
    collect(pattern);
    this.groupCount = groups.size;
    this.root = this.alternatives(pattern.alternatives, groups);
  }

  /** First match starting at or after `from`: its bounds and groups ('' for a group that did not take part); null when none or over budget. */
  find(input: string, from: number): { start: number; end: number; groups: string[] } | null {
    const st: State = { input, caps: new Int32Array(2 * (this.groupCount + 1)), steps: 0 };
    this.state = st;
    try {
      for (let start = from; start <= input.length; start++) {
        st.caps.fill(-1);
        let end = -1;
        if (this.root(start, (p) => ((end = p), true))) {
          const groups = [input.slice(start, end)];
          for (let g = 1; g <= this.groupCount; g++) groups.push(st.caps[2 * g] < 0 ? '' : input.slice(st.caps[2 * g], st.caps[2 * g + 1]));
          return { start, end, groups };
        }
      }
      return null;
    } catch (e) {
      // Over budget, or nesting deeper than the stack: PCRE would give up too.
      if (e instanceof StepLimit || e instanceof RangeError) return null;
      throw e;
    } finally {
      this.state = { input: '', caps: new Int32Array(0), steps: 0 };
    }
  }

  private tick(): State {
    const st = this.state;
    if (++st.steps > MATCH_STEP_LIMIT) throw new StepLimit();
    return st;
  }

  private alternatives(alts: AST.Alternative[], groups: Map<AST.CapturingGroup, number>): Node {
    const seqs = alts.map((a) => this.sequence(a.elements, groups));
    if (seqs.length === 1) return seqs[0];
    return (pos, next) => {
      for (const s of seqs) if (s(pos, next)) return true;
      return false;
    };
  }

  private sequence(elements: AST.Element[], groups: Map<AST.CapturingGroup, number>): Node {
    const nodes = elements.map((e) => this.element(e, groups));
    return nodes.reduceRight<Node>(
      (rest, node) => (pos, next) => node(pos, (p) => rest(p, next)),
      (pos, next) => next(pos),
    );
  }

  private element(e: AST.Element, groups: Map<AST.CapturingGroup, number>): Node {
    switch (e.type) {
      case 'Character':
      case 'CharacterClass':
      case 'CharacterSet':
      case 'ExpressionCharacterClass': {
        // One UTF-16 unit, tested by the engine's own class semantics (no backtracking inside).
        const re = new RegExp(e.raw, 'y');
        return (pos, next) => {
          const { input } = this.tick();
          if (pos >= input.length) return false;
          re.lastIndex = pos;
          return re.test(input) && next(pos + 1);
        };
      }
      case 'Group':
        return this.alternatives(e.alternatives, groups);
      case 'CapturingGroup': {
        const i = 2 * (groups.get(e) as number);
        const body = this.alternatives(e.alternatives, groups);
        return (pos, next) => {
          const { caps } = this.tick();
          const before0 = caps[i];
          const before1 = caps[i + 1];
          const ok = body(pos, (p) => {
            const was0 = caps[i];
            const was1 = caps[i + 1];
            caps[i] = pos;
            caps[i + 1] = p;
            if (next(p)) return true;
            caps[i] = was0;
            caps[i + 1] = was1;
            return false;
          });
          if (!ok) {
            caps[i] = before0;
            caps[i + 1] = before1;
          }
          return ok;
        };
      }
      case 'Backreference': {
        const target = Array.isArray(e.resolved) ? e.resolved[0] : e.resolved;
        const i = 2 * (groups.get(target) as number);
        return (pos, next) => {
          const { input, caps } = this.tick();
          if (caps[i] < 0) return false;
          const len = caps[i + 1] - caps[i];
          if (input.substr(pos, len) !== input.substr(caps[i], len)) return false;
          return next(pos + len);
        };
      }
      case 'Quantifier':
        return this.quantifier(e, this.element(e.element, groups));
      case 'Assertion':
        return this.assertion(e, groups);
    }
  }

  private quantifier(q: AST.Quantifier, body: Node): Node {
    const { min, max, greedy } = q;
    const loop = (pos: number, count: number, next: Next): boolean => {
      this.tick();
      if (count < min) return body(pos, (p) => loop(p, count + 1, next));
      // An iteration that consumes nothing ends the loop (as in every engine).
      const more = () => count < max && body(pos, (p) => p !== pos && loop(p, count + 1, next));
      return greedy ? more() || next(pos) : next(pos) || more();
    };
    return (pos, next) => loop(pos, 0, next);
  }

  private assertion(a: AST.Assertion, groups: Map<AST.CapturingGroup, number>): Node {
    switch (a.kind) {
      case 'start':
        return (pos, next) => (this.tick(), pos === 0 && next(pos));
      case 'end':
        return (pos, next) => {
          const { input } = this.tick();
          return pos === input.length && next(pos);
        };
      case 'word':
        return (pos, next) => {
          const { input } = this.tick();
          const boundary = isWordChar(input, pos - 1) !== isWordChar(input, pos);
          return boundary !== a.negate && next(pos);
        };
      case 'lookahead':
      case 'lookbehind': {
        const body = this.alternatives(a.alternatives, groups);
        const behind = a.kind === 'lookbehind';
        return (pos, next) => {
          const { caps } = this.tick();
          const saved = caps.slice();
          // Look-arounds are atomic: the first way the body matches is the one kept.
          let found = false;
          if (behind) {
            for (let s = pos; s >= 0 && !found; s--) found = body(s, (p) => p === pos);
          } else found = body(pos, () => true);
          if (found === a.negate) {
            caps.set(saved);
            return false;
          }
          if (a.negate) caps.set(saved);
          if (next(pos)) return true;
          caps.set(saved);
          return false;
        };
      }
    }
  }
}

function childrenOf(n: AST.Node): AST.Node[] {
  switch (n.type) {
    case 'Pattern':
    case 'Group':
    case 'CapturingGroup':
      return n.alternatives;
    case 'Assertion':
      return n.kind === 'lookahead' || n.kind === 'lookbehind' ? n.alternatives : [];
    case 'Alternative':
      return n.elements;
    case 'Quantifier':
      return [n.element];
    default:
      return [];
  }
}
