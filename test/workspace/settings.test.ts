import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_SETTINGS, LIMIT_CEILINGS, LIMIT_SETTINGS, normalizeSettings, severityUnder } from '../../shared/workspace/settings';

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
