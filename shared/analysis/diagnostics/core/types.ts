import type { Span } from '../../../php/ast';
import type { RequestMethod } from '../../../runtime/methods';

export type { Severity } from '../../../workspace/diagnostic-codes';
import { DIAGNOSTIC_CODES, type DiagnosticCode, type Severity } from '../../../workspace/diagnostic-codes';

/** A text edit in the analysed document. */
export interface TextEdit {
  span: Span;
  newText: string;
}

export interface QuickFix {
  title: string;
  edits: TextEdit[];
  /** The fix the editor may apply on "fix all" / save. */
  preferred?: boolean;
  /**
   * A method to add to a controller file (relative to the application folder) instead of edits
   * in the analysed document: the host reads that file when the fix is asked for and inserts
   * the method before its class's closing brace (see workspace/controller-edits.ts).
   */
  createMethod?: { file: string; className: string; method: string; params: number; required: number };
}

export interface RelatedInfo {
  span: Span;
  message: string;
  /** Another file (a workspace-relative or absolute path); absent for the analysed document. */
  file?: string;
  /**
   * The text of `file` the span's offsets are in, when it is another file the analysis read
   * (the main route file, for a module's) and not one the analysed document included (those
   * spans carry their file: Span.file).
   */
  text?: string;
}

/** A finding as plain data: offsets into the analysed document, no editor types. */
export interface Finding {
  code: DiagnosticCode;
  severity: Severity;
  message: string;
  span: Span;
  /** The request methods it concerns (empty when it concerns none in particular). */
  methods: RequestMethod[];
  related: RelatedInfo[];
  fixes: QuickFix[];
  /**
   * Fixes worked out only when an editor asks for them (a code action on this finding): those
   * that read much of the file, which would otherwise cost every analysis of a large file.
   */
  deferredFixes?: () => QuickFix[];
  /** Shown faded (e.g. code that never takes effect). */
  unnecessary?: boolean;
}

export { DIAGNOSTIC_CODES, type DiagnosticCode } from '../../../workspace/diagnostic-codes';

/**
 * A finding. Its message says the fact first, in about 120 characters; `details` (the why, the
 * way out) go into related information at the finding's own place, where editors show them
 * beneath it.
 */
export function finding(
  code: DiagnosticCode,
  span: Span,
  message: string,
  extra: Partial<Omit<Finding, 'code' | 'span' | 'message' | 'methods'>> & { details?: string; methods?: readonly RequestMethod[] } = {},
): Finding {
  return {
    code,
    severity: extra.severity ?? DIAGNOSTIC_CODES[code].severity,
    message,
    span,
    // Its own list: a mask's names are shared (see maskNames).
    methods: extra.methods ? extra.methods.slice() : [],
    related: extra.details ? [{ span, message: extra.details }, ...(extra.related ?? [])] : (extra.related ?? []),
    fixes: extra.fixes ?? [],
    ...(extra.deferredFixes ? { deferredFixes: extra.deferredFixes } : {}),
    ...(extra.unnecessary ? { unnecessary: true } : {}),
  };
}

/** Every fix of a finding, the deferred ones worked out now. */
export function allFixes(f: Finding): QuickFix[] {
  return f.deferredFixes ? [...f.fixes, ...f.deferredFixes()] : f.fixes;
}
