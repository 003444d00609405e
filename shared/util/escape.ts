/**
 * Escaping of workspace text (route keys, targets, names, setting keys, file names) for each kind
 * of output it may reach: Markdown (hovers, completion documentation, the route table document),
 * plain messages (notifications and message boxes, where VS Code turns `[label](command:…)` into
 * a live link), and terminal text (the CLI, where escape sequences set titles, write the
 * clipboard or erase lines). Every piece of workspace text goes through one of these; the output
 * kinds' own syntax (a hover's bold header, a table's pipes) is written by the caller around it.
 */

/**
 * Characters no output should carry raw: C0 controls, DEL, C1 controls (0x9B is a CSI of its own
 * in some terminals), line and paragraph separators, and the bidirectional controls that make
 * text read differently from what it is (Trojan Source).
 */
const UNSAFE_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u061c\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;

/** The same but for tab and line feed, which a code block shows as they are. */
const UNSAFE_IN_CODE_BLOCK = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;

/**
 * What JSON.stringify leaves raw: it escapes every C0 control inside strings, so the tabs and line
 * feeds left in its output are its own indentation and must stay as they are.
 */
const UNSAFE_IN_JSON = /[\u007f-\u009f\u061c\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;

/** `\n`, `\t`, `\r`, otherwise `\xNN` or `\u{NNNN}`: visible, and what PHP's double-quoted strings read as the character. */
function visibleEscape(c: string): string {
  switch (c) {
    case '\n':
      return '\\n';
    case '\r':
      return '\\r';
    case '\t':
      return '\\t';
  }
  const code = c.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).toUpperCase().padStart(2, '0')}` : `\\u{${code.toString(16).toUpperCase()}}`;
}

/** Control, separator and bidirectional characters written as visible escapes; everything else as it is. */
export function visibleControls(text: string): string {
  return text.replace(UNSAFE_CHARACTERS, visibleEscape);
}

/**
 * Text for a label VS Code renders with icons (a code lens title): controls made visible, and
 * every `$(` escaped as `\$(`, which VS Code shows as written instead of as an icon, so a route
 * key cannot dress itself up as a warning or a check mark.
 */
export function iconLabelText(text: string): string {
  return visibleControls(text).replace(/\$\(/g, '\\$(');
}

/** Text for a terminal: no escape sequence, no line break, no bidirectional control survives (each is written as `\xNN`). */
export function terminalText(text: string): string {
  return visibleControls(text);
}

/**
 * JSON for a terminal or a log: JSON.stringify leaves DEL, the C1 controls, U+2028/2029 and the
 * bidirectional controls raw; they are written as `\uNNNN`, which every JSON reader reads back.
 */
export function terminalJson(value: unknown, space?: number): string {
  return JSON.stringify(value, null, space).replace(UNSAFE_IN_JSON, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Longest a piece of workspace text may run in a message before it is cut (with "…"). */
export const MESSAGE_FRAGMENT_MAX = 200;

/** The first `max` UTF-16 units of a text, one fewer rather than half a surrogate pair. */
function cutAt(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = /[\ud800-\udbff]/.test(text.charAt(max - 1)) ? max - 1 : max;
  return `${text.slice(0, end)}…`;
}

/**
 * Workspace text inside a plain message (a notification, a message box, a log line): controls
 * made visible, cut at MESSAGE_FRAGMENT_MAX characters, and no `](` left, so that no link can be
 * formed from it (VS Code links `[label](target)` in notifications; a zero-width space breaks the
 * pair without changing what the user reads). A leading `(` and a trailing `]` are broken too: the
 * message's own text around the fragment must not complete a pair either.
 */
export function messageText(text: string, max = MESSAGE_FRAGMENT_MAX): string {
  return visibleControls(cutAt(text, max))
    .replace(/\]\(/g, ']\u200b(')
    .replace(/^\(/, '\u200b(')
    .replace(/\]$/, ']\u200b');
}

/** UTF-8 percent-encoding of one character; a lone surrogate (which has none) as U+FFFD's. */
function percentEncoded(c: string): string {
  try {
    return encodeURIComponent(c);
  } catch {
    return '%EF%BF%BD';
  }
}

/**
 * A URL (a document's own URI) as a Markdown link destination: what could end the destination or
 * the link early (parentheses, angle brackets, spaces, brackets, backslashes, quotes) or break the
 * line is percent-encoded, which the editor decodes back.
 */
export function markdownUrl(url: string): string {
  return url.replace(/[\u0000-\u0020()<>[\]\\`"'\u007f]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`).replace(/[^\u0000-\u007f]/gu, percentEncoded);
}

/** Every ASCII punctuation character may be backslash-escaped in CommonMark, and none then has a meaning. */
const MARKDOWN_PUNCTUATION = /[!-/:-@[-`{-~]/g;

/**
 * Workspace text as Markdown text: every punctuation character backslash-escaped (no emphasis,
 * link, image, HTML, autolink or table cell can start), controls made visible (no line break
 * starts a new block).
 */
export function markdownText(text: string): string {
  return visibleControls(text).replace(MARKDOWN_PUNCTUATION, (c) => `\\${c}`);
}

/** The longest run of backticks in a text. */
function longestBacktickRun(text: string): number {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return longest;
}

/**
 * Workspace text as an inline code span, shown exactly as it is: the span is delimited by more
 * backticks than the text holds in a row (CommonMark), padded with a space where the text starts
 * or ends with one, and controls are made visible. The empty text is shown as `''`.
 */
export function markdownCode(text: string): string {
  const shown = text === '' ? "''" : visibleControls(text);
  const fence = '`'.repeat(longestBacktickRun(shown) + 1);
  const pad = shown.startsWith('`') || shown.endsWith('`') || (shown.startsWith(' ') && shown.endsWith(' ') && shown.trim() !== '') ? ' ' : '';
  return `${fence}${pad}${shown}${pad}${fence}`;
}

/**
 * Workspace text as an inline code span inside a Markdown table cell: `|` must be escaped even
 * there (GFM splits the row before it reads code spans). A `|` after a backslash cannot be: the
 * cell splitter would read the text's backslash and ours as one escaped backslash, and the pipe as
 * the cell's end (a code span cannot escape its backslashes); such a text is shown as escaped text.
 */
export function markdownCodeCell(text: string): string {
  if (/\\\|/.test(text)) return markdownText(text);
  return markdownCode(text).replace(/\|/g, '\\|');
}

/** Workspace text as a fenced code block of the given language (the fence is longer than any backtick run inside). */
export function markdownCodeBlock(text: string, language = ''): string {
  const fence = '`'.repeat(Math.max(3, longestBacktickRun(text) + 1));
  return `${fence}${language}\n${text.replace(UNSAFE_IN_CODE_BLOCK, visibleEscape)}\n${fence}`;
}

const HTML_SPECIAL: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Workspace text as HTML text or a quoted attribute's value (a webview): the five characters HTML
 * reads as markup written as entities, controls made visible. Nothing in it can open a tag, end
 * an attribute or start an entity.
 */
export function htmlText(text: string): string {
  return visibleControls(text).replace(/[&<>"']/g, (c) => HTML_SPECIAL[c]!);
}
