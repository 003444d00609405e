import { ProposedFeatures, createConnection } from 'vscode-languageserver/node';
import { startServer } from './lsp/server';
import { limitHeapGrowth } from './heap-growth';

limitHeapGrowth();

// --stdio, --node-ipc and --socket=N are read from the command line by createConnection.
// The library already exits when stdin ends or closes (stdio) and when the process named by
// initialize's processId (or --clientProcessId) is gone (checked every 3 s).
const connection = createConnection(ProposedFeatures.all);
const server = startServer(connection);

// Over IPC, nothing else notices an editor that closes the channel but lives on (its processId
// stays valid): leave with the channel, as the library does when stdin ends.
process.on('disconnect', () => process.exit(server.shutdownReceived() ? 0 : 1));
