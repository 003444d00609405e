import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ROOT } from '../helpers/paths';
import { MANIFEST, VSIX, skipUnless } from './artifacts';
import { pngSize, readZip } from './zip';

/**
 * The .vsix `npm run package` builds (CI's .ci/run does), read as the Marketplace and Open VSX
 * read it: extension/package.json and extension.vsixmanifest, and the files they name.
 */
describe('the packaged extension (.vsix)', () => {
  let entries = new Map<string, Buffer>();
  let shipped: Record<string, any> = {};
  let vsixManifest = '';

  before(function () {
    skipUnless(this, fs.existsSync(VSIX) ? undefined : `no ${path.basename(VSIX)}: \`npm run package\` builds it (CI does)`);
    entries = readZip(fs.readFileSync(VSIX));
    shipped = JSON.parse(entries.get('extension/package.json')!.toString('utf8'));
    vsixManifest = entries.get('extension.vsixmanifest')!.toString('utf8');
    const stale = ['dist/extension.js', 'dist/server.js'].filter((f) => !entries.get(`extension/${f}`)?.equals(fs.readFileSync(path.join(ROOT, f))));
    skipUnless(this, shipped.version !== MANIFEST.version || stale.length ? `${path.basename(VSIX)} was built from another version or other bundles than dist/: \`npm run package\` again` : undefined);
  });

  it('names its publisher, name, version, VS Code engine, repository and license', () => {
    assert.equal(shipped.publisher, MANIFEST.publisher);
    assert.equal(shipped.name, MANIFEST.name);
    assert.equal(shipped.version, MANIFEST.version);
    assert.equal(shipped.engines.vscode, MANIFEST.engines.vscode);
    assert.equal(shipped.license, 'MIT');
    assert.equal(shipped.repository.url, MANIFEST.repository.url);
    assert.equal(shipped.files, undefined, "the npm package's file list is not the extension's");
    const identity = /<Identity\b[^>]*>/.exec(vsixManifest)?.[0] ?? '';
    assert.match(identity, new RegExp(`Id="${MANIFEST.name}"`));
    assert.match(identity, new RegExp(`Version="${MANIFEST.version}"`));
    assert.match(identity, new RegExp(`Publisher="${MANIFEST.publisher}"`));
    assert.match(vsixManifest, /Id="Microsoft\.VisualStudio\.Services\.Links\.Source" Value="https:\/\/github\.com\/[^"]+"/);
    assert.match(vsixManifest, /Id="Microsoft\.VisualStudio\.Services\.Branding\.Color" Value="#[0-9A-Fa-f]{6}"/);
  });

  it('holds the files its manifests name: main, icon, license, readme, changelog, walkthrough pages', () => {
    const assets = new Map([...vsixManifest.matchAll(/<Asset Type="([^"]+)" Path="([^"]+)"/g)].map((m) => [m[1], m[2]]));
    for (const type of ['Microsoft.VisualStudio.Code.Manifest', 'Microsoft.VisualStudio.Services.Content.Details', 'Microsoft.VisualStudio.Services.Content.Changelog', 'Microsoft.VisualStudio.Services.Content.License', 'Microsoft.VisualStudio.Services.Icons.Default']) {
      const at = assets.get(type);
      assert.ok(at && entries.has(at), `${type}: ${at} is in the archive`);
    }
    const icon = entries.get(`extension/${shipped.icon}`);
    assert.ok(icon, `the icon ${shipped.icon}`);
    assert.ok(pngSize(icon).width >= 128, 'the icon is at least 128 px wide');
    assert.ok(entries.has(`extension/${shipped.main.replace(/^\.\//, '')}`), `main ${shipped.main}`);
    for (const step of shipped.contributes.walkthroughs[0].steps) assert.ok(entries.has(`extension/${step.media.markdown}`), step.media.markdown);
  });

  it('ships nothing else: no sources, maps, tests or node_modules', () => {
    const names = [...entries.keys()].filter((n) => n.startsWith('extension/')).map((n) => n.slice('extension/'.length));
    const unexpected = names.filter((n) => !/^(package\.json|readme\.md|changelog\.md|LICENSE\.txt|dist\/(extension|server)\.js|media\/[\w-]+\.(png|svg)|docs\/walkthrough\/[\w-]+\.md)$/.test(n));
    assert.deepEqual(unexpected, []);
  });
});
