/**
 * What a client may send, checked before any handler (or vscode-languageserver's TextDocuments)
 * sees it. Each check returns why the params are malformed, or undefined when they are well
 * formed. Positions past the end of a line or of the document are well formed (the protocol
 * clamps them); negative, fractional, missing or non-number lines and characters are not.
 */
export type ParamsCheck = (params: unknown) => string | undefined;

/** The protocol's uinteger: positions, lengths. */
const MAX_UINTEGER = 2 ** 31 - 1;
/** Longer strings than these are refused: nothing a client sends for us needs more. */
const MAX_URI_LENGTH = 32 * 1024;
const MAX_SHORT_TEXT = 64 * 1024;

type Fields = Record<string, unknown>;

function isObject(v: unknown): v is Fields {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isUinteger(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= MAX_UINTEGER;
}

export function uriProblem(v: unknown, where: string): string | undefined {
  if (typeof v !== 'string') return `${where} is not a string`;
  if (v.length > MAX_URI_LENGTH) return `${where} is longer than ${MAX_URI_LENGTH} characters`;
  if (!URL.canParse(v)) return `${where} is not a URI`;
  return undefined;
}

function shortTextProblem(v: unknown, where: string): string | undefined {
  if (typeof v !== 'string') return `${where} is not a string`;
  return v.length > MAX_SHORT_TEXT ? `${where} is longer than ${MAX_SHORT_TEXT} characters` : undefined;
}

export function positionProblem(v: unknown, where: string): string | undefined {
  if (!isObject(v)) return `${where} is not a position`;
  if (!isUinteger(v.line)) return `${where}.line is not an integer from 0 to ${MAX_UINTEGER}`;
  if (!isUinteger(v.character)) return `${where}.character is not an integer from 0 to ${MAX_UINTEGER}`;
  return undefined;
}

export function rangeProblem(v: unknown, where: string): string | undefined {
  if (!isObject(v)) return `${where} is not a range`;
  const problem = positionProblem(v.start, `${where}.start`) ?? positionProblem(v.end, `${where}.end`);
  if (problem) return problem;
  const start = v.start as { line: number; character: number };
  const end = v.end as { line: number; character: number };
  if (end.line < start.line || (end.line === start.line && end.character < start.character)) return `${where} ends before it starts`;
  return undefined;
}

function paramsObject(check: (p: Fields) => string | undefined): ParamsCheck {
  return (params) => (isObject(params) ? check(params) : 'the params are not an object');
}

function textDocumentProblem(p: Fields): string | undefined {
  return isObject(p.textDocument) ? uriProblem(p.textDocument.uri, 'textDocument.uri') : 'textDocument is not an object';
}

/** A version is an integer (the protocol's `integer`). */
function versionProblem(v: unknown, where: string): string | undefined {
  return typeof v === 'number' && Number.isSafeInteger(v) ? undefined : `${where} is not an integer`;
}

const anything: ParamsCheck = () => undefined;
const textDocumentOnly = paramsObject(textDocumentProblem);
const atPosition = paramsObject((p) => textDocumentProblem(p) ?? positionProblem(p.position, 'position'));
const inRange = paramsObject((p) => textDocumentProblem(p) ?? rangeProblem(p.range, 'range'));

function contentChangeProblem(change: unknown, i: number): string | undefined {
  const where = `contentChanges[${i}]`;
  if (!isObject(change)) return `${where} is not an object`;
  if (typeof change.text !== 'string') return `${where}.text is not a string`;
  if (change.range === undefined) return undefined;
  if (change.rangeLength !== undefined && !isUinteger(change.rangeLength)) return `${where}.rangeLength is not an integer from 0 to ${MAX_UINTEGER}`;
  // A range ending before its start is rejected: what the client meant is unknowable.
  return rangeProblem(change.range, `${where}.range`);
}

function firstProblem<T>(items: readonly T[], problem: (item: T, i: number) => string | undefined): string | undefined {
  for (let i = 0; i < items.length; i++) {
    const p = problem(items[i], i);
    if (p) return p;
  }
  return undefined;
}

const FILE_CHANGE_TYPES: readonly unknown[] = [1, 2, 3];

/** Requests the server answers, by method. A request registered without a check here is a programming error. */
export const REQUEST_CHECKS: Readonly<Record<string, ParamsCheck>> = {
  shutdown: anything,
  'textDocument/hover': atPosition,
  'textDocument/completion': atPosition,
  'completionItem/resolve': paramsObject((p) => shortTextProblem(p.label, 'label')),
  'textDocument/signatureHelp': atPosition,
  'textDocument/definition': atPosition,
  'textDocument/references': paramsObject((p) => textDocumentProblem(p) ?? positionProblem(p.position, 'position') ?? (p.context === undefined || isObject(p.context) ? undefined : 'context is not an object')),
  'textDocument/prepareRename': atPosition,
  'textDocument/rename': paramsObject((p) => textDocumentProblem(p) ?? positionProblem(p.position, 'position') ?? shortTextProblem(p.newName, 'newName')),
  'textDocument/documentSymbol': textDocumentOnly,
  'workspace/symbol': paramsObject((p) => shortTextProblem(p.query, 'query')),
  'textDocument/codeAction': paramsObject(
    (p) => inRange(p) ?? (isObject(p.context) && Array.isArray(p.context.diagnostics) ? firstProblem(p.context.diagnostics, (d, i) => (isObject(d) ? undefined : `context.diagnostics[${i}] is not an object`)) : 'context.diagnostics is not an array'),
  ),
  'textDocument/codeLens': textDocumentOnly,
  'textDocument/inlayHint': inRange,
  'textDocument/documentLink': textDocumentOnly,
  'textDocument/willSaveWaitUntil': textDocumentOnly,
  'ciRoutes/routeTable': paramsObject((p) => uriProblem(p.uri, 'uri')),
  'ciRoutes/testUrl': paramsObject((p) => uriProblem(p.uri, 'uri') ?? shortTextProblem(p.method, 'method') ?? shortTextProblem(p.url, 'url')),
  'ciRoutes/requestTimings': anything,
  'ciRoutes/indexStats': anything,
  'ciRoutes/workspaceRoutes': anything,
  'ciRoutes/ping': anything,
};

/** Notifications the server handles, by method; a malformed one is dropped (and logged). */
export const NOTIFICATION_CHECKS: Readonly<Record<string, ParamsCheck>> = {
  initialized: anything,
  'workspace/didChangeConfiguration': anything,
  'textDocument/didOpen': paramsObject((p) => {
    if (!isObject(p.textDocument)) return 'textDocument is not an object';
    const d = p.textDocument;
    return uriProblem(d.uri, 'textDocument.uri') ?? shortTextProblem(d.languageId, 'textDocument.languageId') ?? versionProblem(d.version, 'textDocument.version') ?? (typeof d.text === 'string' ? undefined : 'textDocument.text is not a string');
  }),
  'textDocument/didChange': paramsObject((p) => {
    if (!isObject(p.textDocument)) return 'textDocument is not an object';
    const problem = uriProblem(p.textDocument.uri, 'textDocument.uri') ?? versionProblem(p.textDocument.version, 'textDocument.version');
    if (problem) return problem;
    return Array.isArray(p.contentChanges) ? firstProblem(p.contentChanges, contentChangeProblem) : 'contentChanges is not an array';
  }),
  'textDocument/didClose': textDocumentOnly,
  'textDocument/didSave': textDocumentOnly,
  'textDocument/willSave': textDocumentOnly,
  'workspace/didChangeWatchedFiles': paramsObject((p) =>
    Array.isArray(p.changes)
      ? firstProblem(p.changes, (c, i) => (isObject(c) ? (uriProblem(c.uri, `changes[${i}].uri`) ?? (FILE_CHANGE_TYPES.includes(c.type) ? undefined : `changes[${i}].type is not 1, 2 or 3`)) : `changes[${i}] is not an object`))
      : 'changes is not an array',
  ),
};

/** `workspace/didChangeWorkspaceFolders`' event (vscode-languageserver hands it over unchecked). */
export function workspaceFoldersProblem(event: unknown): string | undefined {
  if (!isObject(event)) return 'event is not an object';
  for (const side of ['added', 'removed'] as const) {
    const list = event[side];
    if (!Array.isArray(list)) return `event.${side} is not an array`;
    const problem = firstProblem(list, (f, i) => (isObject(f) ? uriProblem(f.uri, `event.${side}[${i}].uri`) : `event.${side}[${i}] is not an object`));
    if (problem) return problem;
  }
  return undefined;
}

/** A method to create in a controller file, as a fix carries it (see QuickFix.createMethod). */
export interface DataCreateMethod {
  file: string;
  className: string;
  method: string;
  params: number;
  required: number;
}

/** A quick fix as the server puts it in a diagnostic's `data` (see convert.ts). */
export interface DataFix {
  title: string;
  preferred: boolean;
  edits: { range: { start: { line: number; character: number }; end: { line: number; character: number } }; newText: string }[];
  createMethod?: DataCreateMethod;
}

/** Well formed: a controller file's path relative to the application folder, names of a sane length, a few parameters. */
function isCreateMethod(c: unknown): c is DataCreateMethod {
  if (!isObject(c)) return false;
  const { file, className, method, params, required } = c;
  return (
    typeof file === 'string' &&
    file.length <= 1024 &&
    /(^|\/)controllers\/[^\0]+\.php$/i.test(file) &&
    !file.startsWith('/') &&
    typeof className === 'string' &&
    className.length <= 200 &&
    typeof method === 'string' &&
    method.length <= 200 &&
    typeof params === 'number' &&
    Number.isInteger(params) &&
    params >= 0 &&
    params <= 32 &&
    typeof required === 'number' &&
    Number.isInteger(required) &&
    required >= 0 &&
    required <= params
  );
}

/** The quick fixes in a diagnostic's `data` sent back by the client, those well formed. */
export function fixesIn(data: unknown): DataFix[] {
  if (!isObject(data) || !Array.isArray(data.fixes)) return [];
  return data.fixes.filter(
    (f): f is DataFix =>
      isObject(f) &&
      typeof f.title === 'string' &&
      typeof f.preferred === 'boolean' &&
      Array.isArray(f.edits) &&
      f.edits.every((e) => isObject(e) && typeof e.newText === 'string' && !rangeProblem(e.range, 'range')) &&
      (f.createMethod === undefined || isCreateMethod(f.createMethod)),
  );
}
