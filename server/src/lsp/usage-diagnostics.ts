import { TextDocument } from 'vscode-languageserver-textdocument';

export function documentFor(uri: string, text: string): TextDocument {
  return TextDocument.create(uri, 'php', 0, text);
}
