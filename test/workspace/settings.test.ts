import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_SETTINGS, DIAGNOSTIC_LEVELS, FEATURE_SETTINGS, LIMIT_CEILINGS, LIMIT_SETTINGS, diagnosticsSettingSchema, isDiagnosticCode, normalizeSettings, severityUnder } from '../../shared/workspace/settings';
import { DIAGNOSTIC_CODES } from '../../shared/workspace/diagnostic-codes';

describe('settings: ciRoutes.diagnostics', () => {
  it('takes a level per known code and says what it refused', () => {
    const { settings, problems } = normalizeSettings({ diagnostics: { 'duplicate-route': 'error', 'missing-controller': 'off', 'no-such-code': 'off', toString: 'off', 'unknown-option': 'loud' } });
    assert.deepEqual(settings.diagnostics, { 'duplicate-route': 'error', 'missing-controller': 'off' });
    assert.deepEqual(problems, [
      'ciRoutes.diagnostics: unknown diagnostic code "no-such-code"',
      'ciRoutes.diagnostics: unknown diagnostic code "toString"',
      'ciRoutes.diagnostics.unknown-option must be one of off, error, warning, information, hint',
    ]);
  });

  it('gives a finding its own severity unless the setting names its code', () => {
    const diagnostics = normalizeSettings({ diagnostics: { 'duplicate-route': 'hint', 'missing-controller': 'off' } }).settings.diagnostics;
    assert.equal(severityUnder(diagnostics, { code: 'duplicate-route', severity: 'warning' }), 'hint');
    assert.equal(severityUnder(diagnostics, { code: 'missing-controller', severity: 'warning' }), 'off');
    assert.equal(severityUnder(diagnostics, { code: 'unknown-route-name', severity: 'error' }), 'error');
  });
});

describe('settings: the limits', () => {
  it('clamps a limit above its ceiling to the ceiling and says so in plain words', () => {
    const { settings, problems } = normalizeSettings({ maxSteps: 1e15, maxEvaluationMs: 1e12, maxRoutes: Number.MAX_SAFE_INTEGER, maxFileSize: 2 ** 40, maxOutlineSymbols: 1e9 });
    assert.deepEqual(
      { maxSteps: settings.maxSteps, maxEvaluationMs: settings.maxEvaluationMs, maxRoutes: settings.maxRoutes, maxFileSize: settings.maxFileSize, maxOutlineSymbols: settings.maxOutlineSymbols },
      LIMIT_CEILINGS,
    );
    assert.deepEqual(problems, [
      'ciRoutes.maxFileSize is 1,099,511,627,776, above its ceiling of 16,777,216: the ceiling is used',
      'ciRoutes.maxSteps is 1,000,000,000,000,000, above its ceiling of 10,000,000: the ceiling is used',
      'ciRoutes.maxEvaluationMs is 1,000,000,000,000, above its ceiling of 20,000: the ceiling is used',
      'ciRoutes.maxRoutes is 9,007,199,254,740,991, above its ceiling of 1,000,000: the ceiling is used',
      'ciRoutes.maxOutlineSymbols is 1,000,000,000, above its ceiling of 100,000: the ceiling is used',
    ]);
  });

  it('keeps a limit within its ceiling as given, and refuses one that is not a positive number', () => {
    const { settings, problems } = normalizeSettings({ maxSteps: LIMIT_CEILINGS.maxSteps, maxRoutes: 0.5, maxFileSize: Infinity, maxOutlineSymbols: '9' });
    assert.equal(settings.maxSteps, LIMIT_CEILINGS.maxSteps);
    assert.equal(settings.maxRoutes, DEFAULT_SETTINGS.maxRoutes);
    assert.equal(settings.maxFileSize, DEFAULT_SETTINGS.maxFileSize);
    assert.equal(settings.maxOutlineSymbols, DEFAULT_SETTINGS.maxOutlineSymbols);
    assert.deepEqual(problems, ['ciRoutes.maxFileSize must be a positive number', 'ciRoutes.maxRoutes must be a positive number', 'ciRoutes.maxOutlineSymbols must be a positive number']);
  });

  it('every ceiling lies above its default', () => {
    for (const field of LIMIT_SETTINGS) assert.ok(LIMIT_CEILINGS[field] > DEFAULT_SETTINGS[field], field);
  });
});

describe("settings: the extension's manifest", () => {
  // Compiled to out/test/workspace/: the manifest is three folders up.
  const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as {
    capabilities: { untrustedWorkspaces: { supported: unknown; restrictedConfigurations?: string[] } };
    contributes: { configuration: { properties: Record<string, { default?: unknown; maximum?: number }> } };
  };

  it('keeps every limit from an untrusted workspace (Restricted Mode uses the user or default value)', () => {
    const trust = manifest.capabilities.untrustedWorkspaces;
    assert.equal(trust.supported, 'limited');
    assert.deepEqual([...(trust.restrictedConfigurations ?? [])].sort(), LIMIT_SETTINGS.map((f) => `ciRoutes.${f}`).sort());
  });

  it("declares each limit's default and ceiling as the server applies them", () => {
    for (const field of LIMIT_SETTINGS) {
      const declared = manifest.contributes.configuration.properties[`ciRoutes.${field}`];
      assert.equal(declared.default, DEFAULT_SETTINGS[field], field);
      assert.equal(declared.maximum, LIMIT_CEILINGS[field], field);
    }
  });
});

describe('settings: ciRoutes.router', () => {
  it('takes auto, ci, bonfire or mx, and falls back to auto otherwise', () => {
    assert.equal(normalizeSettings({}).settings.router, 'auto');
    for (const router of ['auto', 'ci', 'bonfire', 'mx']) assert.equal(normalizeSettings({ router }).settings.router, router);
    const { settings, problems } = normalizeSettings({ router: 'hmvc' });
    assert.equal(settings.router, 'auto');
    assert.deepEqual(problems, ['ciRoutes.router must be "auto", "ci", "bonfire" or "mx", not "hmvc"']);
  });
});

describe('settings: the editor features (ciRoutes.<feature>.enabled)', () => {
  it('are on by default, and each is switched off by its own { enabled: false }', () => {
    for (const feature of FEATURE_SETTINGS) assert.equal(DEFAULT_SETTINGS[feature], true, feature);
    for (const feature of FEATURE_SETTINGS) {
      const { settings, problems } = normalizeSettings({ [feature]: { enabled: false } });
      assert.deepEqual(problems, []);
      for (const other of FEATURE_SETTINGS) assert.equal(settings[other], other !== feature, `${feature} off: ${other}`);
    }
  });

  it('still read the earlier boolean ciRoutes.inlayHints, and refuse what is not a boolean', () => {
    assert.equal(normalizeSettings({ inlayHints: false }).settings.inlayHints, false);
    assert.equal(normalizeSettings({ codeLens: {} }).settings.codeLens, true, 'an object without enabled leaves the default');
    const { settings, problems } = normalizeSettings({ hover: { enabled: 'no' }, completion: 0 });
    assert.equal(settings.hover, true);
    assert.equal(settings.completion, true);
    assert.deepEqual(problems, ['ciRoutes.hover.enabled must be true or false', 'ciRoutes.completion.enabled must be true or false']);
  });
});

describe("settings: the manifest's schema is the server's", () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as {
    contributes: { configuration: { properties: Record<string, { type?: string; default?: unknown; properties?: Record<string, { enum?: string[] }> }> } };
  };
  const properties = manifest.contributes.configuration.properties;

  it('lists under ciRoutes.diagnostics exactly the codes the engine has, each with the levels it takes', () => {
    const declared = properties['ciRoutes.diagnostics'];
    assert.deepEqual(Object.keys(declared.properties ?? {}).sort(), Object.keys(DIAGNOSTIC_CODES).sort());
    for (const [code, schema] of Object.entries(declared.properties ?? {})) assert.deepEqual(schema.enum, [...DIAGNOSTIC_LEVELS], code);
    // Made from DIAGNOSTIC_CODES: a code added, renamed or re-described there shows here.
    assert.deepEqual(declared, diagnosticsSettingSchema(), `package.json's "ciRoutes.diagnostics" should be:\n${JSON.stringify(diagnosticsSettingSchema(), null, 2)}`);
  });

  it('has every code of DIAGNOSTIC_CODES made by some check or host, and no other', () => {
    // Compiled to out/test/workspace/: the sources are three folders up.
    const root = path.join(__dirname, '..', '..', '..');
    const sources: string[] = [];
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (e.name.endsWith('.ts') && !p.endsWith(path.join('workspace', 'diagnostic-codes.ts'))) sources.push(fs.readFileSync(p, 'utf8'));
      }
    };
    for (const dir of ['shared', path.join('server', 'src')]) walk(path.join(root, dir));
    const all = sources.join('\n');
    for (const code of Object.keys(DIAGNOSTIC_CODES)) assert.ok(all.includes(`'${code}'`), `no source makes '${code}'`);
    const made = new Set([...all.matchAll(/finding\(\s*'([a-z-]+)'/g)].map((m) => m[1]));
    for (const code of made) assert.ok(isDiagnosticCode(code), `'${code}' is made but not in DIAGNOSTIC_CODES`);
  });

  it('declares each feature switch as a boolean ciRoutes.<feature>.enabled with the server default, and no earlier form', () => {
    for (const feature of FEATURE_SETTINGS) {
      const declared = properties[`ciRoutes.${feature}.enabled`];
      assert.equal(declared?.type, 'boolean', feature);
      assert.equal(declared.default, DEFAULT_SETTINGS[feature], feature);
      // VS Code cannot have both `ciRoutes.x` and `ciRoutes.x.enabled`.
      assert.equal(properties[`ciRoutes.${feature}`], undefined, feature);
    }
  });
});
