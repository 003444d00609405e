/**
 * `ciRoutes` settings a hostile repository could ship, as the fuzz run's client answers them:
 * limits far past their ceilings (where raising them does not lengthen an evaluation; the step
 * and time budgets are tried with bad types instead, which fall back to the defaults), values of
 * the wrong type, setting keys that are Markdown command links, a 1 MB constant, and globs that
 * match everything. The server must clamp or refuse each with a plain message, and keep working.
 */
export function hostileSettings(variant: number): Record<string, unknown> {
  const link = `[open a terminal](command:workbench.action.terminal.new?${encodeURIComponent(JSON.stringify([variant]))})`;
  return {
    dialect: variant % 2 ? { nested: link } : 'bonfire',
    router: variant % 3 ? link : 'mx',
    maxFileSize: 1e15,
    maxRoutes: Number.MAX_VALUE,
    maxOutlineSymbols: 1e12,
    maxSteps: variant % 2 ? -1 : 'unbounded',
    maxEvaluationMs: variant % 2 ? Number.NaN : { ms: 1e15 },
    diagnostics: { [link]: 'off', 'duplicate-route': `![pixel](https://example.invalid/${variant}.png)`, 'missing-controller': 'off' },
    constants: { SITE_AREA: 'admin', HUGE: 'x'.repeat(1 << 20), [`\u001b]0;${link}\u0007`]: 1 },
    routeFiles: variant % 2 ? ['**/**/**/**/**/**/*.php', '**/config/routes.php'] : [42, link],
    inlayHints: link,
  };
}

/** VS Code's notification link syntax: `[label](command:…)`, `(https:…)` or `(file:…)`. */
export const NOTIFICATION_LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/i;
