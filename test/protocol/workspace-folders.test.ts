import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { WorkspaceFolders } from '../../server/src/lsp/workspace-folders';
import { normalizeSettings } from '../../shared/workspace/settings';

const root = path.resolve('/srv/site');
const rootUri = pathToFileURL(root).toString();
// Not reset(): that sets the process's read fence, which the other tests of this process read under.
const folder = () => ({ uri: rootUri, path: root, settings: normalizeSettings({}).settings, settingsRead: false });

/** What happens to a document opened before its folder's settings came from the client. */
describe("workspace folders: waiting for a folder's settings", () => {
  it('runs at once for a folder whose settings were read, or for no folder', async () => {
    const folders = new WorkspaceFolders(async () => ({ maxSteps: 1234 }), () => undefined);
    folders.list = [folder()];
    const ran: string[] = [];
    folders.whenSettingsRead(undefined, () => ran.push('no folder'));
    await folders.refresh();
    folders.whenSettingsRead(root, () => ran.push('read'));
    assert.deepEqual(ran, ['no folder', 'read']);
    assert.equal(folders.list[0].settings.maxSteps, 1234);
  });

  it('runs once the settings are read, under them', async () => {
    let answer: (v: unknown) => void = () => undefined;
    const folders = new WorkspaceFolders(() => new Promise((resolve) => (answer = resolve)), () => undefined);
    folders.list = [folder()];
    const refreshed = folders.refresh();
    const seen: number[] = [];
    const ran = new Promise<void>((resolve) => folders.whenSettingsRead(root, () => (seen.push(folders.list[0].settings.maxSteps), resolve())));
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(seen, [], 'not before the answer');
    answer({ maxSteps: 4321 });
    await refreshed;
    await ran;
    assert.deepEqual(seen, [4321]);
  });

  it('goes on under the defaults when the client never answers', async () => {
    const folders = new WorkspaceFolders(() => new Promise(() => undefined), () => undefined, 20);
    folders.list = [folder()];
    void folders.refresh();
    const defaults = folders.list[0].settings.maxSteps;
    const seen = await new Promise<number>((resolve) => folders.whenSettingsRead(root, () => resolve(folders.list[0].settings.maxSteps)));
    assert.equal(seen, defaults);
  });
});
