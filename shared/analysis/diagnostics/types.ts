import type { Span } from '../../php/ast';
import type { RequestMethod } from '../../library/methods';

export type Severity = 'error' | 'warning' | 'information' | 'hint';

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
}

export interface RelatedInfo {
  span: Span;
  message: string;
  /** Another file (a workspace-relative or absolute path); absent for the analysed document. */
  file?: string;
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
  /** Shown faded (e.g. code that never takes effect). */
  unnecessary?: boolean;
}

export const DIAGNOSTIC_CODES = {
  'duplicate-route': { severity: 'warning', summary: 'A declaration replaces a route declared earlier for the same request method.' },
  'unknown-route-name': { severity: 'error', summary: 'Route::named() of a name no route has: it returns null.' },
  'shadowed-block': { severity: 'warning', summary: 'A block() path that never takes effect.' },
  'unreachable-route': { severity: 'warning', summary: 'Every URI the route matches is matched first by earlier routes.' },
  'undefined-route-method': { severity: 'error', summary: 'A Route:: method that does not exist: PHP stops with a fatal error.' },
  'block-array': { severity: 'error', summary: 'Route::block() given an array registers the path "Array" and blocks nothing.' },
  'prefix-not-nested': { severity: 'warning', summary: 'prefix() inside prefix(): the outer prefix is lost.' },
  'nested-callable-repeated': { severity: 'warning', summary: 'A $nested callable runs once per generated route, repeating its routes.' },
  'nested-depth': { severity: 'warning', summary: 'A route inside a $nested callable that the nesting quirks misnumber or skip.' },
  'routes-after-map': { severity: 'warning', summary: 'Routes declared after the last Route::map() never reach $route.' },
  'missing-map': { severity: 'warning', summary: 'Routes declared but $route is never given Route::map()\'s result.' },
  'closure-target': { severity: 'error', summary: 'A closure as the target of any()/verb methods: map() throws a TypeError on PHP 8.' },
  'invalid-pattern': { severity: 'error', summary: 'A route pattern that is not a valid regular expression: it never matches.' },
  'backreference-out-of-range': { severity: 'warning', summary: 'A $n in a target beyond the pattern\'s groups.' },
  'unknown-option': { severity: 'warning', summary: 'An option key the method ignores.' },
  'missing-controller': { severity: 'warning', summary: 'A target whose controller or method does not exist.' },
  'dynamic-route': { severity: 'information', summary: 'A route whose path or target cannot be known statically: checks skip it, and it may take any URI.' },
  'runtime-error': { severity: 'error', summary: 'The file stops with a PHP error under some request methods.' },
  'evaluation-limit': { severity: 'warning', summary: 'Evaluation stopped by the step budget or a nesting limit.' },
  'syntax-error': { severity: 'error', summary: 'A PHP syntax error (the statement is skipped).' },
} as const satisfies Record<string, { severity: Severity; summary: string }>;

export type DiagnosticCode = keyof typeof DIAGNOSTIC_CODES;

/**
 * A finding. Its message says the fact first, in about 120 characters; `details` (the why, the
 * way out) go into related information at the finding's own place, where editors show them
 * beneath it.
 */
export function finding(code: DiagnosticCode, span: Span, message: string, extra: Partial<Omit<Finding, 'code' | 'span' | 'message'>> & { details?: string } = {}): Finding {
  return {
    code,
    severity: extra.severity ?? DIAGNOSTIC_CODES[code].severity,
    message,
    span,
    methods: extra.methods ?? [],
    related: extra.details ? [{ span, message: extra.details }, ...(extra.related ?? [])] : (extra.related ?? []),
    fixes: extra.fixes ?? [],
    ...(extra.unnecessary ? { unnecessary: true } : {}),
  };
}
