import * as assert from 'node:assert/strict';
import { normalizeSettings, severityUnder } from '../../shared/workspace/settings';

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
