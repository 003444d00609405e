/**
 * The data the PHP file indexer produces, and the rules both of its paths (the syntax tree and the
 * lexical recovery scan) share, so that they agree on what a routable method or a route name is.
 */

export interface OffsetSpan {
  start: number;
  end: number;
}

export interface ControllerMethod {
  name: string;
  /** Offsets of the method name. */
  span: OffsetSpan;
  params: number;
  /** Parameters a call must pass (PHP 8: an optional parameter before a required one counts as required). */
  requiredParams: number;
}

export interface ControllerInfo {
  /** As declared, e.g. `Photos`. */
  className: string;
  /** Offsets of the class name. */
  classSpan: OffsetSpan;
  /** The parent class as written, without a leading `\`, e.g. `CI_Controller`, `MX_Controller`, `Admin_Controller`. */
  extends?: string;
  /**
   * Public methods callable through the URL (CodeIgniter: public, not starting with `_`, not the
   * constructor, not a method CI_Controller has), with the offsets of each method name.
   */
  methods: ControllerMethod[];
  /** True when the class defines _remap() (then any method name is accepted by CodeIgniter). */
  hasRemap: boolean;
  /**
   * Its method named like the class, without a public `__construct` (see finishClass): its
   * constructor before PHP 8, which CodeIgniter refuses, and a method like the others since.
   */
  legacyConstructor?: string;
  /** The traits the class uses (`use Exports;`), as written: their public methods are the class's too. */
  traits?: string[];
  /** Offset of the `}` that closes the class's body, when the file has one. */
  bodyEnd?: number;
}

export interface NamedUsage {
  /** The literal name when the argument is a plain string literal; undefined when it is dynamic. */
  name?: string;
  /** Offsets of the whole `Route::named(...)` call. */
  callSpan: OffsetSpan;
  /** Offsets of the (first) argument expression; undefined when the call has no argument. */
  argSpan?: OffsetSpan;
  /** Offsets of the string content inside the quotes (for rename/completion), when literal. */
  nameSpan?: OffsetSpan;
}

export interface PhpFileIndex {
  /** Every named class in the file, in source order (a CodeIgniter controller file holds one). */
  controllers: ControllerInfo[];
  /** Every `Route::named(...)` call outside string interpolation, in source order. */
  namedUsages: NamedUsage[];
  /**
   * False when php-parser parsed the whole file without a syntax error and the result comes from
   * its syntax tree; true when the file had syntax errors (or crashed the parser) and the result
   * comes from the lexical recovery scan.
   */
  recovered: boolean;
  /** Why the recovery scan was used, when it was. */
  recoveryReason?: string;
}

/** Methods CI_Controller itself has: CodeIgniter answers 404 for them (`method_exists('CI_Controller', $method)`). */
const CI_CONTROLLER_METHODS = new Set(['get_instance']);

export interface MethodDeclaration {
  name: string;
  span: OffsetSpan;
  /** `public`, `protected`, `private`, or undefined when no visibility keyword was written (public). */
  visibility: string | undefined;
  params: { optional: boolean; variadic: boolean }[];
}

/**
 * Adds a declared method to a class's record, keeping only what CodeIgniter would route to.
 * Returns whether it is the class's public constructor (`__construct`; see finishClass).
 */
export function recordMethod(info: ControllerInfo, m: MethodDeclaration): boolean {
  const lower = m.name.toLowerCase();
  if (lower === '_remap') info.hasRemap = true;
  const visibility = (m.visibility ?? 'public').toLowerCase();
  if (visibility !== 'public') return false;
  if (lower === '__construct') return true;
  if (lower.startsWith('_')) return false; // includes _remap
  if (CI_CONTROLLER_METHODS.has(lower)) return false;
  let required = 0;
  m.params.forEach((p, i) => {
    if (!p.optional && !p.variadic) required = i + 1;
  });
  info.methods.push({ name: m.name, span: m.span, params: m.params.length, requiredParams: required });
  return false;
}

/**
 * Call once a class's methods are all recorded, saying whether recordMethod met its public
 * `__construct`: without one, a method named like the class is its (PHP 4 style) constructor
 * before PHP 8, which CodeIgniter refuses (see ControllerInfo.legacyConstructor).
 */
export function finishClass(info: ControllerInfo, constructed: boolean): void {
  if (constructed) return;
  const lower = info.className.toLowerCase();
  const named = info.methods.find((m) => m.name.toLowerCase() === lower);
  if (named) info.legacyConstructor = named.name;
}

/** The parent class name as stored: without a leading `\`. */
export function normalizeParent(name: string): string {
  return name.startsWith('\\') ? name.slice(1) : name;
}

/** True for the class part of `Route::named`: `Route` or `\Route`, any case. */
export function isRouteClassName(name: string): boolean {
  return name.length <= 6 && /^\\?route$/i.test(name);
}

export function isNamedMethodName(name: string): boolean {
  return name.length === 5 && name.toLowerCase() === 'named';
}

const DOUBLE_QUOTE_ESCAPES = /\\(?:([nrtvef\\$"])|([0-7]{1,3})|[xX]([0-9a-fA-F]{1,2})|u\{([0-9a-fA-F]+)\})/g;
const SIMPLE_ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t', v: '\v', e: '\x1b', f: '\f', '\\': '\\', $: '$', '"': '"' };

/**
 * The value of a string literal from the text between its quotes, with PHP's escapes: in single
 * quotes only `\\` and `\'`; in double quotes the usual set (an unknown escape keeps its backslash).
 * Octal and `\x` escapes give one byte in PHP; here they give the code unit of that byte.
 */
export function decodeStringContent(content: string, quote: string): string {
  if (content.indexOf('\\') < 0) return content;
  if (quote === "'") return content.replace(/\\([\\'])/g, '$1');
  return content.replace(DOUBLE_QUOTE_ESCAPES, (whole, simple: string | undefined, oct: string | undefined, hex: string | undefined, uni: string | undefined) => {
    if (simple !== undefined) return SIMPLE_ESCAPES[simple];
    if (oct !== undefined) return String.fromCharCode(parseInt(oct, 8) & 0xff);
    if (hex !== undefined) return String.fromCharCode(parseInt(hex, 16));
    const cp = parseInt(uni ?? '', 16);
    return cp <= 0x10ffff ? String.fromCodePoint(cp) : whole;
  });
}
