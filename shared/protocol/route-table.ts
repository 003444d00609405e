/**
 * What the custom request `ciRoutes/routeTable` answers, as plain data: the server builds it, the
 * VS Code extension renders it (both read this one declaration). No LSP types: a location is the
 * protocol's shape, written out.
 */

/** A place in a file, as the Language Server Protocol writes it (0-based lines and characters). */
export interface ProtocolLocation {
  uri: string;
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
}

export interface RouteTableRow {
  index: number;
  uri: string;
  target: string;
  names: string[];
  reserved: boolean;
  location?: ProtocolLocation;
}

export interface RouteTableResult {
  file: string;
  dialect: string;
  /** How the dialect was chosen (`detected from …`, `given`, `default`…). */
  dialectSource: string;
  /** The PHP version the file is evaluated under, and how it was chosen (`php 8.2 (default)`). */
  php: string;
  /** The router that routes the application's requests (Test URL), and how it was chosen. */
  router: string;
  routerSource: string;
  /** ENVIRONMENT the route files run in (null when given but not a string), and how it was chosen. */
  environment: string | null;
  environmentSource: string;
  /** The environment's route file the router ran after this main route file, if it did. */
  environmentRoutes?: string;
  /** One line saying all of it, for the route table's header (see describeEnvironment). */
  environmentLine: string;
  /** The analysis limits the evaluation reached (`line 3: evaluation stopped after …`): the tables are then not all the file does. */
  limits?: string[];
  methods: { method: string; error?: string; rows: RouteTableRow[] }[];
  /**
   * The application's other route files, in the order its router reads them (the main file, then
   * each module's), each with its routes across methods as the workspace index evaluated it.
   */
  otherFiles?: RouteFileTable[];
}

/** One route file's routes, methods merged, for the route table's other files. */
export interface RouteFileTable {
  file: string;
  /** The module whose routes file it is, if one (its targets are relative to the module). */
  module?: string;
  /** A request method's fatal error, if one stops the file. */
  error?: string;
  rows: { methods: string[]; uri: string; target: string; names: string[]; location?: ProtocolLocation }[];
  /** Rows left out past MAX_OTHER_FILE_ROWS. */
  more?: number;
}

/** Rows sent at most per other route file: the table shows the application, the editor the file. */
export const MAX_OTHER_FILE_ROWS = 2_000;
