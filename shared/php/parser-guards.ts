import type { Engine } from 'php-parser';

/**
 * php-parser never stopping is a hang of the whole server, whatever the budgets: two guards are
 * put on every instance the engine creates.
 *
 * 1. Its look-ahead (a name that could be a label, `static`, peeking) rewinds the lexer with
 *    `getState`/`setState`, which leave out the lexer's condition stack and the tokens it lexed
 *    ahead: when the token looked at opened a string (`"`, a heredoc, a backtick), the rewound
 *    lexer reads the code after the name as string contents, or the string's parts before the
 *    name, for ever (`J#$s`, a newline and `"in` is enough). The state saved here is whole.
 * 2. Whatever other loop it or its lexer may have, a parse that asks for far more tokens than its
 *    text can hold is stopped with ParserRunaway (a statement php-parser cannot finish, not a hang).
 */
export class ParserRunaway extends Error {
  constructor() {
    super('php-parser did not finish this statement');
  }
}

/**
 * Characters read, tokens taken and errors recovered a parse may count per character of its text,
 * plus a constant: a parse reads each character about once, or a few times where it looks ahead.
 */
const STEPS_PER_CHARACTER = 16;
const STEPS_BASE = 1024;

interface LexerInternals {
  conditionStack: string[];
  curCondition?: string;
  stateCb?: unknown;
  done: boolean;
  /** Tokens lexed ahead, or pushed back by the parser with the state to rewind to. */
  tokens: unknown[][];
  getState(): Record<string, unknown>;
  setState(state: Record<string, unknown>): unknown;
  setInput(input: string): unknown;
  input(): unknown;
}

interface ParserInternals {
  next(): unknown;
  raiseError(...args: unknown[]): unknown;
}

/** What php-parser's own lexer state leaves out. */
interface SavedConditions {
  conditionStack: string[];
  curCondition?: string;
  stateCb?: unknown;
  done: boolean;
  queued: unknown[][];
}

/** Applies both guards to `engine` (or only the step bound, for the tests that check it alone). */
export function guardParser(engine: Engine, options: { lexerStateFix?: boolean } = {}): Engine {
  const internals = engine as unknown as { lexer: LexerInternals; parser: ParserInternals; parseCode(code: string, file: string): unknown };
  if (options.lexerStateFix !== false) saveWholeLexerState(internals.lexer);
  boundSteps(internals);
  return engine;
}

const conditionsOf = (state: unknown): SavedConditions | undefined => (typeof state === 'object' && state !== null ? ((state as { conditions?: SavedConditions }).conditions ?? undefined) : undefined);

/**
 * The lexer's state saved and restored whole: its condition stack and the tokens it had lexed
 * ahead too. The parser rewinds by pushing `[token, state]` at the end of the queue, behind what
 * the lexer lexed ahead meanwhile (a string's parts): that token must come first, and the rest
 * is lexed again from its state.
 */
function saveWholeLexerState(lexer: LexerInternals): void {
  const getState = lexer.getState.bind(lexer);
  const setState = lexer.setState.bind(lexer);
  const setInput = lexer.setInput.bind(lexer);
  const replaceQueue = (entries: readonly unknown[][]) => {
    lexer.tokens.length = 0;
    for (const e of entries) Array.prototype.push.call(lexer.tokens, e);
  };
  lexer.getState = () => {
    const conditions: SavedConditions = { conditionStack: lexer.conditionStack.slice(), curCondition: lexer.curCondition, stateCb: lexer.stateCb, done: lexer.done, queued: lexer.tokens.slice() };
    return { ...getState(), conditions };
  };
  lexer.setState = (state) => {
    const result = setState(state);
    const saved = conditionsOf(state);
    if (saved) {
      lexer.conditionStack = saved.conditionStack.slice();
      lexer.curCondition = saved.curCondition;
      lexer.stateCb = saved.stateCb;
      lexer.done = saved.done;
      replaceQueue(saved.queued);
    }
    return result;
  };
  lexer.setInput = (input) => {
    const result = setInput(input);
    const tokens = lexer.tokens;
    tokens.push = (...entries: unknown[][]) => {
      for (const entry of entries) {
        // A rewind: the state it carries restores the queue once the entry is read.
        if (conditionsOf(entry[1])) replaceQueue([entry]);
        else Array.prototype.push.call(tokens, entry);
      }
      return tokens.length;
    };
    return result;
  };
}

function boundSteps(engine: { lexer: LexerInternals; parser: ParserInternals; parseCode(code: string, file: string): unknown }): void {
  const { parser, lexer } = engine;
  let left = Infinity;
  const step = () => {
    if (--left < 0) throw new ParserRunaway();
  };
  const next = parser.next.bind(parser);
  const raiseError = parser.raiseError.bind(parser);
  parser.next = () => {
    step();
    return next();
  };
  parser.raiseError = (...args) => {
    step();
    return raiseError(...args);
  };
  // The lexer may loop alone too, within one token (the whitespace at the end of an unclosed
  // `#[` is read for ever): it is bounded by the characters it reads.
  const input = lexer.input.bind(lexer);
  lexer.input = () => {
    step();
    return input();
  };
  const parseCode = engine.parseCode.bind(engine);
  engine.parseCode = (code, file) => {
    left = STEPS_BASE + STEPS_PER_CHARACTER * code.length;
    try {
      return parseCode(code, file);
    } finally {
      left = Infinity;
    }
  };
}
