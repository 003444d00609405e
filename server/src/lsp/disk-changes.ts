import * as path from 'node:path';
import { FileChangeType } from 'vscode-languageserver';
import { ROUTER_FILE_NAMES } from '../../../shared/app/router-flavour';
import type { ServerContext } from './server-context';
import type { FileChange, Followed } from './watched-changes';

/** What a file's change on disk means for the index and the application model. */
export class DiskChanges {
  /** Whether a file that is not a route file changed in the batch being followed. */
  private otherFilesChanged = false;

  constructor(private readonly ctx: ServerContext) {}

  /** One file's changes on disk, followed (once per batch of events, see WatchedChanges). */
  follow(change: FileChange): Followed {
    const { service, index, documents } = this.ctx;
    const base = path.basename(change.file);
    // What the application folder tells: its constants, the Route library's version, the router, ENVIRONMENT (index.php), the URI characters (config.php).
    if (base === 'constants.php' || base === 'config.php' || base === 'Route.php' || base === 'index.php' || base === 'composer.json' || base === 'CodeIgniter.php' || ROUTER_FILE_NAMES.has(base) || service.applicationRead(change.file)) service.invalidateApp();
    // composer.json tells the PHP version only: the open route files are analysed again (see below), nothing is indexed.
    if (base === 'composer.json') return 'other file';
    service.invalidateControllers();
    // A file a route file includes (or might, through glob()): its includers are evaluated again,
    // once for the whole batch (see includersOfChanges).
    if (!index.isRouteFile(change.file)) this.otherFilesChanged = true;
    if (documents.get(change.uri)) return 'open'; // the open document is the truth
    if (change.type === FileChangeType.Deleted) index.removeFile(change.file);
    else if (index.isRouteFile(change.file)) {
      index.updateRouteFile(change.file);
      return 'route file read';
    } else index.updatePhpFile(change.file);
    return 'other file';
  }

  /** The route files closed in every editor that read other files, read again once per batch of changes on disk; how many. */
  includersOfChanges(): number {
    if (!this.otherFilesChanged) return 0;
    this.otherFilesChanged = false;
    const { service, index } = this.ctx;
    let read = 0;
    for (const includer of service.otherFilesChanged()) {
      if (service.isOpen(includer)) continue;
      index.updateRouteFile(includer);
      read++;
    }
    return read;
  }
}
