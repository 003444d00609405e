import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DidOpenTextDocumentNotification } from 'vscode-languageserver-protocol/node';
import { LspClient } from './lsp-client';
import { tempProject } from './temp-project';

/** A temporary project and the language server serving it, for the tests of one mocha suite. */
export interface ServedProject {
  /** The project's folder (the workspace folder). */
  readonly dir: string;
  readonly client: LspClient;
  /** Opens the project's file `rel` (its text on disk unless given) at version 1; its URI. */
  open(rel: string, text?: string): Promise<string>;
}

/**
 * tempProject's files served by a language server: made in the suite's `before`, the server shut
 * down and the folder removed in its `after`. Read its fields inside the tests.
 */
export function servedProject(prefix: string, files: Record<string, string>): ServedProject {
  let dir = '';
  let client: LspClient | undefined;
  before(async () => {
    dir = tempProject(prefix, files);
    client = new LspClient();
    await client.initialize(dir);
  });
  after(async () => {
    await client?.shutdown();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });
  return {
    get dir() {
      return dir;
    },
    get client() {
      if (!client) throw new Error('servedProject: read inside a test, once the suite has started');
      return client;
    },
    async open(rel, text) {
      const file = path.join(dir, rel);
      const uri = pathToFileURL(file).toString();
      await this.client.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'php', version: 1, text: text ?? fs.readFileSync(file, 'utf8') } });
      return uri;
    },
  };
}
