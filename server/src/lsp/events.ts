import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Due } from './scheduler';
import type { FileChange, FollowedSummary } from './watched-changes';

/**
 * Everything the main loop reacts to: what the client said (converted from LSP to plain data by
 * the handlers in server.ts), what the background work finished, and what the scheduler says is
 * due. The loop is the only code that changes the server's state in answer to one.
 */
export type ServerEvent =
  | { kind: 'documentOpened'; doc: TextDocument }
  | { kind: 'documentChanged'; doc: TextDocument }
  | { kind: 'documentClosed'; doc: TextDocument }
  /** Nothing follows a save: the file watcher reports the disk, and the open text is the truth. */
  | { kind: 'documentSaved'; doc: TextDocument }
  /** A request about the document is about to be answered: its current version must be evaluated. */
  | { kind: 'requestReceived'; doc: TextDocument }
  | { kind: 'watchedFilesChanged'; changes: FileChange[] }
  /** A batch of changes on disk was followed (see WatchedChanges). */
  | { kind: 'watchedFilesFollowed'; summary: FollowedSummary }
  /** Folders were added to the workspace or removed from it. */
  | { kind: 'workspaceFoldersChanged'; added: readonly { uri: string }[]; removed: readonly { uri: string }[] }
  /** The settings were read again from the client. */
  | { kind: 'configurationChanged' }
  /** The workspace's route files were indexed (the first time, or again after the folders changed). */
  | { kind: 'indexed'; routeFiles: number; ms: number; first: boolean }
  | { kind: 'shutdown' }
  | Due;

export type EventKind = ServerEvent['kind'];
