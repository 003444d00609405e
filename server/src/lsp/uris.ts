import { fileURLToPath } from 'node:url';

/** The file a `file:` URI names; others (untitled, remote) have none. */
export function uriToPath(uri: string): string | undefined {
  try {
    return uri.startsWith('file:') ? fileURLToPath(uri) : undefined;
  } catch {
    return undefined;
  }
}
