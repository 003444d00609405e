import { normalizeSettings, type FolderSettings } from '../../../shared/workspace/settings';
import { setReadRoots } from '../host/read-fence';
import { uriToPath } from './uris';

export interface Folder {
  uri: string;
  path: string;
  settings: FolderSettings;
}

/** The workspace folders with their settings; files are read only inside them. */
export class WorkspaceFolders {
  list: Folder[] = [];

  constructor(
    /** The client's `ciRoutes` section for a folder ({} when the client has no configuration). */
    private readonly readSettings: (scopeUri: string) => Promise<unknown>,
    /** Where a setting's problem is told to the user. */
    private readonly warn: (message: string) => void,
  ) {}

  /** The folders the client opened with (or its root). */
  reset(folders: readonly { uri: string }[]): void {
    this.list = folders.flatMap((f) => {
      const p = uriToPath(f.uri);
      return p ? [{ uri: f.uri, path: p, settings: normalizeSettings({}).settings }] : [];
    });
    // From here on, files are read only inside the workspace folders (symlinks resolved).
    setReadRoots(this.list.map((f) => f.path));
  }

  change(added: readonly { uri: string }[], removed: readonly { uri: string }[]): void {
    this.list = this.list.filter((f) => !removed.some((r) => r.uri === f.uri));
    for (const a of added) {
      const p = uriToPath(a.uri);
      if (p) this.list.push({ uri: a.uri, path: p, settings: normalizeSettings({}).settings });
    }
    setReadRoots(this.list.map((f) => f.path));
  }

  /** Reads every folder's settings again from the client. */
  async refresh(): Promise<void> {
    for (const f of this.list) {
      let raw: unknown;
      try {
        raw = await this.readSettings(f.uri);
      } catch {
        raw = {};
      }
      const { settings, problems } = normalizeSettings(raw);
      f.settings = settings;
      for (const p of problems) this.warn(`CI Routes: ${p}`);
    }
  }
}
