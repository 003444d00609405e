import * as assert from 'node:assert/strict';
import { severityIcon, statusText } from '../../client/src/status-text';

describe('the status bar item', () => {
  const none = { errors: 0, warnings: 0, infos: 0 };

  it('follows the worst severity of the file, a check mark when it has none', () => {
    assert.equal(severityIcon(none), '$(check)');
    assert.equal(severityIcon({ ...none, infos: 3 }), '$(info)');
    assert.equal(severityIcon({ ...none, warnings: 1, infos: 3 }), '$(warning)');
    assert.equal(severityIcon({ errors: 1, warnings: 1, infos: 3 }), '$(error)');
  });

  it('counts distinct routes, with the dialect and the router', () => {
    const s = statusText({ routes: 53, dialect: 'bonfire', router: 'mx', routerSource: 'detected from core/MY_Router.php', php: 'php 8.2 (default)', environment: 'environment development (default), no config/development/routes.php', problems: { errors: 0, warnings: 2, infos: 1 } });
    assert.equal(s.text, '$(warning) 53 routes · bonfire · mx');
    assert.match(s.tooltip, /problems: 2 warnings, 1 other finding/);
    assert.match(s.tooltip, /router mx: detected from core\/MY_Router\.php/);
    assert.match(s.tooltip, /PHP 8\.2 \(default\)\nenvironment development \(default\), no config\/development\/routes\.php$/);
    assert.equal(statusText({ routes: 1, dialect: 'spec', problems: none }).text, '$(check) 1 route · spec');
    assert.match(statusText({ routes: 1, dialect: 'spec', limits: ['line 3: evaluation stopped after 100,000 steps'], problems: none }).tooltip, /not the whole file: line 3: evaluation stopped after 100,000 steps/);
    assert.match(statusText({ routes: 1, dialect: 'spec', stops: 'GET: Error: boom (line 3)', problems: { ...none, errors: 1 } }).tooltip, /PHP stops: GET: Error: boom \(line 3\) \(counted: what the file declares without the failing statements\)/);
  });

  it('shows words from the server as written, never as icons', () => {
    assert.equal(statusText({ routes: 2, dialect: '$(check)', router: '$(error)', problems: none }).text, '$(check) 2 routes · \\$(check) · \\$(error)');
  });
});
