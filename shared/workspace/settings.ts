import { parsePhpVersion } from '../runtime/php-version';
import { DIAGNOSTIC_CODES, type DiagnosticCode, type Severity } from './diagnostic-codes';
import { messageText } from '../util/escape';
import { withThousands } from '../util/without-icu';

/** `ciRoutes.*` settings of one workspace folder. */
export interface FolderSettings {
  /** Library version: 'auto' detects it from the application's own Route.php. */
  dialect: 'auto' | 'spec' | 'bonfire';
  /** The router that routes requests (Test URL): 'auto' detects it from the application's own files. */
  router: 'auto' | 'ci' | 'bonfire' | 'mx';
  /** The PHP version whose semantics apply where versions differ ('7.4', '8.2'…): 'auto' reads composer.json's require.php, else 8.2. */
  phpVersion: string;
  /** Constants defined before route files run (override config/constants.php). */
  constants: Record<string, string | number | boolean | null>;
  /** Globs (relative to the folder) of the route files. */
  routeFiles: string[];
  /** Per diagnostic code: 'off' or a severity replacing the default. */
  diagnostics: Partial<Record<DiagnosticCode, 'off' | Severity>>;
  /** Route files larger than this many bytes are not analysed. */
  maxFileSize: number;
  /** Evaluation steps allowed per route file. */
  maxSteps: number;
  /** Wall-clock milliseconds one evaluation of a route file may take. */
  maxEvaluationMs: number;
  /** Routes one request method may hold before evaluation stops (a diagnostic says so). */
  maxRoutes: number;
  /** Code lenses: above each declaration in a route file, on each method of a controller (`ciRoutes.codeLens.enabled`). */
  codeLens: boolean;
  /** Hovers in route files and on `Route::named()` in any PHP file (`ciRoutes.hover.enabled`). */
  hover: boolean;
  /** Completion of methods, options, route names and targets (`ciRoutes.completion.enabled`). */
  completion: boolean;
  /** Show what each `$n` in a target refers to (`ciRoutes.inlayHints.enabled`). */
  inlayHints: boolean;
  /** Symbols a route file's outline lists at most (the shallowest first). */
  maxOutlineSymbols: number;
}

export const DEFAULT_ROUTE_FILES = ['**/application/config/routes.php', '**/application/modules/*/config/routes.php', '**/config/routes.php'];

export const DEFAULT_SETTINGS: FolderSettings = {
  dialect: 'auto',
  router: 'auto',
  phpVersion: 'auto',
  constants: {},
  routeFiles: DEFAULT_ROUTE_FILES,
  diagnostics: {},
  maxFileSize: 2 * 1024 * 1024,
  maxSteps: 100_000,
  maxEvaluationMs: 5_000,
  maxRoutes: 200_000,
  codeLens: true,
  hover: true,
  completion: true,
  inlayHints: true,
  maxOutlineSymbols: 5_000,
};

/** The settings that bound the work done per file. */
export const LIMIT_SETTINGS = ['maxFileSize', 'maxSteps', 'maxEvaluationMs', 'maxRoutes', 'maxOutlineSymbols'] as const;

/**
 * The most each limit may be set to, whatever the settings say: a repository's own
 * `.vscode/settings.json` must not be able to switch the limits off (with `maxSteps` at 1e15 a
 * `while (true)` would hold the server for good). Each ceiling is far past what real files need
 * (a 10,000-declaration file takes about 62,000 steps and 2 MB).
 */
export const LIMIT_CEILINGS: Readonly<Record<(typeof LIMIT_SETTINGS)[number], number>> = {
  maxFileSize: 16 * 1024 * 1024,
  maxSteps: 10_000_000,
  // Below the time the VS Code extension gives a silent server before it restarts it (30 s).
  maxEvaluationMs: 20_000,
  maxRoutes: 1_000_000,
  maxOutlineSymbols: 100_000,
};

/**
 * The editor features a folder may switch off, each a `ciRoutes.<feature>.enabled` boolean (as
 * VS Code's own `editor.codeLens`, `typescript.referencesCodeLens.enabled`): one setting per
 * feature, each on its own line of the settings UI.
 */
export const FEATURE_SETTINGS = ['codeLens', 'hover', 'completion', 'inlayHints'] as const;
export type FeatureSetting = (typeof FEATURE_SETTINGS)[number];

/** What `ciRoutes.diagnostics` may set a code to. */
export const DIAGNOSTIC_LEVELS: readonly ('off' | Severity)[] = ['off', 'error', 'warning', 'information', 'hint'];

export function isDiagnosticLevel(level: unknown): level is 'off' | Severity {
  return typeof level === 'string' && (DIAGNOSTIC_LEVELS as readonly string[]).includes(level);
}

export function isDiagnosticCode(code: string): code is DiagnosticCode {
  return Object.prototype.hasOwnProperty.call(DIAGNOSTIC_CODES, code);
}

/** The severity a finding is shown with under `ciRoutes.diagnostics` (its own when the setting says nothing), or 'off'. */
export function severityUnder(diagnostics: FolderSettings['diagnostics'], finding: { code: DiagnosticCode; severity: Severity }): Severity | 'off' {
  return diagnostics[finding.code] ?? finding.severity;
}

/**
 * Validates raw settings (from an editor, JSON) field by field; bad fields fall back to defaults.
 * The problems are shown in notifications: what they quote of the settings (a repository's
 * `.vscode/settings.json`) goes through messageText, so that it cannot form a link.
 */
export function normalizeSettings(raw: unknown): { settings: FolderSettings; problems: string[] } {
  const problems: string[] = [];
  const r = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const s: FolderSettings = { ...DEFAULT_SETTINGS, constants: {}, diagnostics: {} };
  if (r.dialect !== undefined) {
    if (r.dialect === 'auto' || r.dialect === 'spec' || r.dialect === 'bonfire') s.dialect = r.dialect;
    else problems.push(`ciRoutes.dialect must be "auto", "spec" or "bonfire", not ${messageText(JSON.stringify(r.dialect) ?? String(r.dialect))}`);
  }
  if (r.phpVersion !== undefined) {
    if (r.phpVersion === 'auto' || (typeof r.phpVersion === 'string' && parsePhpVersion(r.phpVersion))) s.phpVersion = r.phpVersion;
    else problems.push(`ciRoutes.phpVersion must be "auto" or a PHP version such as "7.4" or "8.2", not ${messageText(JSON.stringify(r.phpVersion) ?? String(r.phpVersion))}`);
  }
  if (r.router !== undefined) {
    if (r.router === 'auto' || r.router === 'ci' || r.router === 'bonfire' || r.router === 'mx') s.router = r.router;
    else problems.push(`ciRoutes.router must be "auto", "ci", "bonfire" or "mx", not ${messageText(JSON.stringify(r.router) ?? String(r.router))}`);
  }
  if (r.constants !== undefined) {
    if (r.constants && typeof r.constants === 'object' && !Array.isArray(r.constants)) {
      for (const [k, v] of Object.entries(r.constants)) {
        if (v === null || ['string', 'number', 'boolean'].includes(typeof v)) s.constants[k] = v as string | number | boolean | null;
        else problems.push(`ciRoutes.constants.${messageText(k)} must be a string, number, boolean or null`);
      }
    } else problems.push('ciRoutes.constants must be an object');
  }
  if (r.routeFiles !== undefined) {
    if (Array.isArray(r.routeFiles) && r.routeFiles.every((g) => typeof g === 'string')) s.routeFiles = r.routeFiles as string[];
    else problems.push('ciRoutes.routeFiles must be a list of glob patterns');
  }
  if (r.diagnostics !== undefined) {
    if (r.diagnostics && typeof r.diagnostics === 'object') {
      for (const [code, level] of Object.entries(r.diagnostics)) {
        if (!isDiagnosticCode(code)) problems.push(`ciRoutes.diagnostics: unknown diagnostic code "${messageText(code)}"`);
        else if (!isDiagnosticLevel(level)) problems.push(`ciRoutes.diagnostics.${code} must be one of ${DIAGNOSTIC_LEVELS.join(', ')}`);
        else s.diagnostics[code] = level;
      }
    } else problems.push('ciRoutes.diagnostics must be an object');
  }
  for (const feature of FEATURE_SETTINGS) {
    const v = r[feature];
    if (v === undefined) continue;
    // `{ enabled: false }` is how the client sends `ciRoutes.codeLens.enabled`; a bare boolean is
    // the earlier `ciRoutes.inlayHints` (and what a client without nested settings may send).
    const enabled = v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>).enabled : v;
    if (enabled === undefined) continue;
    if (typeof enabled === 'boolean') s[feature] = enabled;
    else problems.push(`ciRoutes.${feature}.enabled must be true or false`);
  }
  for (const field of LIMIT_SETTINGS) {
    const v = r[field];
    if (v === undefined) continue;
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 1) problems.push(`ciRoutes.${field} must be a positive number`);
    else if (v > LIMIT_CEILINGS[field]) {
      s[field] = LIMIT_CEILINGS[field];
      problems.push(`ciRoutes.${field} is ${withThousands(v)}, above its ceiling of ${withThousands(LIMIT_CEILINGS[field])}: the ceiling is used`);
    } else s[field] = Math.floor(v);
  }
  return { settings: s, problems };
}

/** Each level a code may be set to, in the settings UI's words. */
const LEVEL_DESCRIPTIONS: Readonly<Record<'off' | Severity, string>> = {
  off: 'Not reported.',
  error: 'Reported as an error.',
  warning: 'Reported as a warning.',
  information: 'Reported as information.',
  hint: 'Shown as a hint (no entry in the Problems panel).',
};

/**
 * The `ciRoutes.diagnostics` schema of the extension's manifest, made from DIAGNOSTIC_CODES: one
 * property per code, so that the settings UI lists the codes (a test holds package.json to it).
 */
export function diagnosticsSettingSchema(): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const [code, { severity, summary }] of Object.entries(DIAGNOSTIC_CODES)) {
    properties[code] = {
      type: 'string',
      enum: [...DIAGNOSTIC_LEVELS],
      enumDescriptions: DIAGNOSTIC_LEVELS.map((level) => LEVEL_DESCRIPTIONS[level]),
      description: `${summary} Default: ${severity}.`,
    };
  }
  return {
    type: 'object',
    default: {},
    scope: 'resource',
    properties,
    additionalProperties: false,
    markdownDescription: 'Per diagnostic code: `"off"`, or the severity to show it with instead of its default. The codes are listed in the README\'s Diagnostics table.',
  };
}
