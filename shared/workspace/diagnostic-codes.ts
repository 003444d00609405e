/** How strongly a finding is shown (and what `ciRoutes.diagnostics` may set each code to). */
export type Severity = 'error' | 'warning' | 'information' | 'hint';

/**
 * Every diagnostic code with its default severity and a summary: the settings schema and its
 * validation read it, the checks make findings of it (analysis/diagnostics/core/types.ts).
 */
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
  'short-open-tag': { severity: 'information', summary: "The file opens PHP with '<?', which PHP reads as PHP only with short_open_tag On." },
  'codeigniter-2': { severity: 'information', summary: 'The application runs CodeIgniter 2: routes are checked as its router reads them, controllers are not checked.' },
  'uri-chars': { severity: 'information', summary: "The application permits URI characters beyond CodeIgniter's default: only routes whose every URI is of the default's characters ((:num), no (:any)) are checked for reach." },
  'dynamic-route': { severity: 'information', summary: 'A route whose path or target cannot be known statically: checks skip it, and it may take any URI.' },
  'runtime-error': { severity: 'error', summary: 'The file stops with a PHP error under some request methods.' },
  'evaluation-limit': { severity: 'warning', summary: 'Evaluation stopped by the step budget or a nesting limit.' },
  'syntax-error': { severity: 'error', summary: 'A PHP syntax error (the statement is skipped).' },
} as const satisfies Record<string, { severity: Severity; summary: string }>;

export type DiagnosticCode = keyof typeof DIAGNOSTIC_CODES;
