import type { IncludeFiles } from '../evaluate/includes';
import type { AppTree } from '../router/app-tree';

/** A file or a folder, when it exists and may be read. */
export type FileKind = 'file' | 'dir';

/** An entry met by ProjectFiles.walk: folders are given too, when entered. */
export interface WalkedEntry {
  kind: 'file' | 'folder';
  /** The path, under the folder walked as given. */
  path: string;
  /** Relative to the folder walked, with `/` separators. */
  rel: string;
  name: string;
}

/**
 * What the application model reads, as the host lets it read: the engine does no I/O, and every
 * answer here has gone through the host's read fence and size caps. Paths are the host's own
 * (absolute). A file that is missing, unreadable, too large or outside the fence is simply not
 * there.
 */
export interface ProjectFiles {
  /** A regular file's text, at most `maxBytes` long; undefined when it cannot be read. */
  read(file: string, maxBytes: number): string | undefined;
  kind(file: string): FileKind | undefined;
  /** The names in a folder, sorted; none when it cannot be read. */
  list(dir: string): readonly string[];
  /** A folder as the router asks about it (paths relative to it), answers cached. */
  tree(dir: string): AppTree;
  /** include/require and glob() for the route files of the project at `projectDir`, PHP running in `workingDir` (see IncludeFiles.workingDir). */
  includes(projectDir: string, workingDir?: string): IncludeFiles;
  /** Every file under a folder, bounded in depth; each real folder once. */
  walk(dir: string, options: { maxDepth?: number; seen?: Set<string> }): Iterable<WalkedEntry>;
  /** A path as messages show it (relative to the working folder when under it). */
  shown(file: string): string;
}
