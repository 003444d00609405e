import { ProposedFeatures, createConnection } from 'vscode-languageserver/node';
import { startServer } from './lsp/server';

// --stdio, --node-ipc and --socket=N are read from the command line by createConnection.
const connection = createConnection(ProposedFeatures.all);
startServer(connection);
