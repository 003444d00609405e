import { normalizeSettings, type FolderSettings } from '../../../shared/workspace/settings';
import { setReadRoots } from '../host/read-fence';
import { uriToPath } from './uris';
import { realTimers, type TimerHandle, type Timers } from './scheduler';

export interface Folder {
  uri: string;
  path: string;
  settings: FolderSettings;
  /** Whether `settings` are the client's (read at least once), not yet the defaults they start as. */
  settingsRead: boolean;
}

/** How long an analysis waits for a folder's settings from the client before going on under the defaults. */
export const SETTINGS_WAIT_MS = 2_000;

/** The workspace folders with their settings; files are read only inside them. */
export class WorkspaceFolders {
  list: Folder[] = [];

  constructor(
    /** The client's `ciRoutes` section for a folder ({} when the client has no configuration). */
    private readonly readSettings: (scopeUri: string) => Promise<unknown>,
    /** Where a setting's problem is told to the user. */
    private readonly warn: (message: string) => void,
    /** How long whenSettingsRead waits for a client that does not answer. */
    private readonly settingsWaitMs = SETTINGS_WAIT_MS,
    private readonly timers: Timers = realTimers,
  ) {}

  /** The folders the client opened with (or its root). */
  reset(folders: readonly { uri: string }[]): void {
    this.list = folders.flatMap((f) => {
      const p = uriToPath(f.uri);
      return p ? [{ uri: f.uri, path: p, settings: normalizeSettings({}).settings, settingsRead: false }] : [];
    });
    // From here on, files are read only inside the workspace folders (symlinks resolved).
    setReadRoots(this.list.map((f) => f.path));
  }

  change(added: readonly { uri: string }[], removed: readonly { uri: string }[]): void {
    this.list = this.list.filter((f) => !removed.some((r) => r.uri === f.uri));
    for (const a of added) {
      const p = uriToPath(a.uri);
      if (p) this.list.push({ uri: a.uri, path: p, settings: normalizeSettings({}).settings, settingsRead: false });
    }
    setReadRoots(this.list.map((f) => f.path));
  }

  /** Reads every folder's settings again from the client. */
  async refresh(): Promise<void> {
    const done = this.read();
    this.reading.add(done);
    try {
      await done;
    } finally {
      this.reading.delete(done);
    }
  }

  /**
   * Runs `then` once the settings of the folder at `folderPath` are the client's (at once when they
   * are, or for no folder): a document opened before the client answered the first
   * workspace/configuration request is analysed under its folder's settings, never first under the
   * defaults (its findings published for a moment, an ENVIRONMENT not yet chosen).
   */
  whenSettingsRead(folderPath: string | undefined, then: () => void, waitedMs = 0): void {
    const folder = this.list.find((f) => f.path === folderPath);
    // A client that never answers gets the defaults, as before the wait.
    if (!folder || folder.settingsRead || this.reading.size === 0 || waitedMs >= this.settingsWaitMs) return then();
    const started = Date.now();
    let timer: TimerHandle | undefined;
    const timeout = new Promise<void>((resolve) => (timer = this.timers.after(this.settingsWaitMs - waitedMs, resolve, true)));
    void Promise.race([Promise.allSettled([...this.reading]), timeout]).then(() => {
      this.timers.cancel(timer);
      this.whenSettingsRead(folderPath, then, waitedMs + Math.max(1, Date.now() - started));
    });
  }

  /** Refreshes under way. */
  private readonly reading = new Set<Promise<void>>();

  private async read(): Promise<void> {
    for (const f of this.list) {
      let raw: unknown;
      try {
        raw = await this.readSettings(f.uri);
      } catch {
        raw = {};
      }
      const { settings, problems } = normalizeSettings(raw);
      f.settings = settings;
      f.settingsRead = true;
      for (const p of problems) this.warn(`CI Routes: ${p}`);
    }
  }
}
