import * as fs from 'node:fs';
import { mayRead } from './read-fence';

/** Why a file was not read: outside the workspace, not a regular file, too large, or gone. */
export class UnreadableFile extends Error {
  /** The errno code when the system refused (ENOENT, EACCES, ELOOP…); EISDIR for a folder, EFBIG over the size limit, EOUTSIDE outside the workspace. */
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

// Opened without blocking: a FIFO named like a PHP file must not hang the server on open.
const OPEN_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0);

/**
 * Reads a regular file as UTF-8, at most `maxBytes`. The type and size are checked on the opened
 * descriptor, so a file replaced or removed between listing and reading, a FIFO, a device or a
 * symlink loop is refused with `UnreadableFile` instead of hanging or reading without end.
 */
export function readRegularFile(file: string, maxBytes: number): string {
  if (!mayRead(file)) {
    let code = 'EOUTSIDE';
    try {
      fs.realpathSync.native(file);
    } catch (e) {
      code = (e as NodeJS.ErrnoException).code ?? 'ENOENT'; // missing, dangling, a loop
    }
    throw new UnreadableFile(code === 'EOUTSIDE' ? `'${file}' lies outside the workspace folders (symlinks resolved)` : `'${file}' cannot be opened: ${code}`, code);
  }
  let fd: number;
  try {
    fd = fs.openSync(file, OPEN_FLAGS);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UnreadableFile(`'${file}' cannot be opened: ${code ?? (e as Error).message}`, code);
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) throw new UnreadableFile(`'${file}' is not a regular file`, st.isDirectory() ? 'EISDIR' : undefined);
    if (st.size > maxBytes) throw new UnreadableFile(`'${file}' is ${st.size} bytes, over the limit of ${maxBytes} bytes`, 'EFBIG');
    const buf = Buffer.alloc(st.size);
    let read = 0;
    // A file that shrinks while read ends early; one that grows is read up to its size at open.
    while (read < buf.length) {
      const n = fs.readSync(fd, buf, read, buf.length - read, read);
      if (n === 0) break;
      read += n;
    }
    return buf.toString('utf8', 0, read);
  } catch (e) {
    if (e instanceof UnreadableFile) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    throw new UnreadableFile(`'${file}' could not be read: ${code ?? (e as Error).message}`, code);
  } finally {
    fs.closeSync(fd);
  }
}

/** What a path is, following symlinks, when it may be read; 'none' otherwise. */
export function kindOf(p: string): 'file' | 'dir' | 'none' {
  try {
    if (!mayRead(p)) return 'none';
    const st = fs.statSync(p);
    return st.isFile() ? 'file' : st.isDirectory() ? 'dir' : 'none';
  } catch {
    return 'none';
  }
}
