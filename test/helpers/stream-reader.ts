import type { Readable } from 'node:stream';
import { StreamMessageReader } from 'vscode-languageserver-protocol/node';

/**
 * A message reader on a child process's output that stops for good when the stream ends. A server
 * killed in the middle of a message leaves a partial one buffered, and vscode-jsonrpc's reader
 * then re-arms its partial-message timer for ever, even after dispose(): the test process would
 * never exit.
 */
export function processMessageReader(stream: Readable): StreamMessageReader {
  const reader = new StreamMessageReader(stream);
  const stop = () => {
    reader.partialMessageTimeout = 0;
    (reader as unknown as { clearPartialMessageTimer?: () => void }).clearPartialMessageTimer?.();
  };
  stream.on('close', stop);
  stream.on('end', stop);
  return reader;
}
