import { CancellationToken, ErrorCodes, ResponseError, type Connection, type InitializeParams } from 'vscode-languageserver';
import { NOTIFICATION_CHECKS, REQUEST_CHECKS, uriProblem, type ParamsCheck } from './param-checks';

/** The connection's registrations of requests, by the LSP method each registers. */
const REQUEST_REGISTRATIONS: Readonly<Record<string, string>> = {
  onHover: 'textDocument/hover',
  onCompletion: 'textDocument/completion',
  onCompletionResolve: 'completionItem/resolve',
  onSignatureHelp: 'textDocument/signatureHelp',
  onDefinition: 'textDocument/definition',
  onReferences: 'textDocument/references',
  onPrepareRename: 'textDocument/prepareRename',
  onRenameRequest: 'textDocument/rename',
  onDocumentSymbol: 'textDocument/documentSymbol',
  onWorkspaceSymbol: 'workspace/symbol',
  onCodeAction: 'textDocument/codeAction',
  onCodeLens: 'textDocument/codeLens',
  onDocumentLinks: 'textDocument/documentLink',
  onWillSaveTextDocumentWaitUntil: 'textDocument/willSaveWaitUntil',
};

/** The connection's registrations of notifications, by the LSP method each registers. */
const NOTIFICATION_REGISTRATIONS: Readonly<Record<string, string>> = {
  onInitialized: 'initialized',
  onDidChangeConfiguration: 'workspace/didChangeConfiguration',
  onDidChangeWatchedFiles: 'workspace/didChangeWatchedFiles',
  onDidOpenTextDocument: 'textDocument/didOpen',
  onDidChangeTextDocument: 'textDocument/didChange',
  onDidCloseTextDocument: 'textDocument/didClose',
  onWillSaveTextDocument: 'textDocument/willSave',
  onDidSaveTextDocument: 'textDocument/didSave',
};

/** Registrations that take no params from the client. */
const UNCHECKED = new Set(['onExit']);

/** Malformed messages logged at most, so that a flood of them does not flood the log. */
const MAX_LOGGED = 50;

type Handler = (...args: unknown[]) => unknown;
type Lifecycle = 'starting' | 'running' | 'shut down';

/**
 * The one place where what a client sends is checked (see param-checks.ts): `guard(connection)`
 * is the connection with every handler registered through it wrapped, so that
 * - a request before `initialize` gets ServerNotInitialized and one after `shutdown` InvalidRequest,
 *   as the protocol says, and a notification before `initialize` is dropped;
 * - a request with malformed params gets InvalidParams, and a malformed notification is dropped
 *   and logged, before any handler (or TextDocuments, which listens through it) sees them.
 * Registering a handler the checks do not know throws: every method the server serves is checked.
 */
export class ProtocolEdge {
  private lifecycle: Lifecycle = 'starting';
  private logged = 0;

  constructor(private readonly log: (message: string) => void) {}

  guard(connection: Connection): Connection {
    // Requests nobody registered: before initialize they get what every request gets then.
    connection.onRequest((method: string) => this.lifecycleError() ?? new ResponseError(ErrorCodes.MethodNotFound, `Unhandled method ${method}`));
    return new Proxy(connection, {
      get: (target, prop, receiver) => {
        const value = Reflect.get(target, prop, receiver) as unknown;
        if (typeof prop !== 'string' || typeof value !== 'function' || !prop.startsWith('on') || UNCHECKED.has(prop)) return value;
        const register = (...args: unknown[]) => (value as Handler).apply(target, args);
        if (prop === 'onInitialize') return (handler: Handler) => register(this.initializing(handler));
        if (prop === 'onShutdown') return (handler: Handler) => register(this.shuttingDown(handler));
        if (prop === 'onRequest') return (type: unknown, handler: Handler) => register(type, this.request(methodOf(type), handler));
        if (prop === 'onNotification') return (type: unknown, handler: Handler) => register(type, this.notification(methodOf(type), handler));
        const request = REQUEST_REGISTRATIONS[prop];
        if (request) return (handler: Handler) => register(this.request(request, handler));
        const notification = NOTIFICATION_REGISTRATIONS[prop];
        if (notification) return (handler: Handler) => register(this.notification(notification, handler));
        return () => {
          throw new Error(`${prop}: no params check for what it registers (protocol-edge.ts)`);
        };
      },
    });
  }

  /** Drops and logs a malformed event that vscode-languageserver hands over unchecked (workspace folders). */
  refuse(what: string, problem: string | undefined): boolean {
    if (problem) this.note(`ignored ${what}: ${problem}`);
    return problem !== undefined;
  }

  private lifecycleError(): ResponseError<void> | undefined {
    if (this.lifecycle === 'starting') return new ResponseError(ErrorCodes.ServerNotInitialized, 'The server is not initialized yet: send initialize first.');
    if (this.lifecycle === 'shut down') return new ResponseError(ErrorCodes.InvalidRequest, 'The server is shut down: only exit is accepted.');
    return undefined;
  }

  private request(method: string, handler: Handler): Handler {
    const check = checkFor(REQUEST_CHECKS, method);
    return (...args) => {
      const refused = this.lifecycleError();
      if (refused) return refused;
      const problem = check(args[0]);
      if (problem) {
        this.note(`refused ${method}: ${problem}`);
        return new ResponseError(ErrorCodes.InvalidParams, `${method}: ${problem}`);
      }
      // Params sent by position are spread over the arguments: the token may be anything then.
      if (args.length > 1 && !CancellationToken.is(args[1])) args[1] = CancellationToken.None;
      return handler(...args);
    };
  }

  private notification(method: string, handler: Handler): Handler {
    const check = checkFor(NOTIFICATION_CHECKS, method);
    return (...args) => {
      if (this.lifecycle === 'starting') return undefined; // the protocol says: dropped
      const problem = check(args[0]);
      if (problem) {
        this.note(`ignored ${method}: ${problem}`);
        return undefined;
      }
      return handler(...args);
    };
  }

  private initializing(handler: Handler): Handler {
    return (params, ...rest) => {
      this.lifecycle = 'running';
      return handler(wellFormedInitialize(params), ...rest);
    };
  }

  private shuttingDown(handler: Handler): Handler {
    return (...args) => {
      const refused = this.lifecycleError();
      if (refused) return refused;
      this.lifecycle = 'shut down';
      return handler(...args);
    };
  }

  private note(message: string): void {
    if (this.logged < MAX_LOGGED) this.log(message.length > 500 ? `${message.slice(0, 500)}…` : message);
    else if (this.logged === MAX_LOGGED) this.log(`further malformed messages from the client are not logged`);
    this.logged++;
  }
}

function methodOf(type: unknown): string {
  if (typeof type === 'string') return type;
  if (typeof type === 'object' && type !== null && typeof (type as { method?: unknown }).method === 'string') return (type as { method: string }).method;
  throw new Error('a registration without a method');
}

function checkFor(checks: Readonly<Record<string, ParamsCheck>>, method: string): ParamsCheck {
  const check = checks[method];
  if (!check) throw new Error(`${method}: no params check (param-checks.ts)`);
  return check;
}

/**
 * `initialize`'s params with what the server reads made well formed: folders without a URI are
 * left out, a missing capabilities object is empty. (vscode-languageserver reads processId and
 * the capabilities itself before.)
 */
function wellFormedInitialize(raw: unknown): InitializeParams {
  const params = (typeof raw === 'object' && raw !== null ? raw : {}) as Partial<InitializeParams>;
  const object = <T>(v: T | undefined | null) => (typeof v === 'object' && v !== null && !Array.isArray(v) ? v : undefined);
  const folders = Array.isArray(params.workspaceFolders) ? params.workspaceFolders.filter((f) => object(f) && !uriProblem(f.uri, 'uri')) : null;
  return {
    ...params,
    processId: typeof params.processId === 'number' ? params.processId : null,
    capabilities: object(params.capabilities) ?? {},
    rootUri: uriProblem(params.rootUri, 'rootUri') ? null : (params.rootUri ?? null),
    workspaceFolders: folders,
    initializationOptions: object(params.initializationOptions) ?? {},
  };
}
