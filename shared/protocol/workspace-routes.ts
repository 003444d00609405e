import type { ProtocolLocation } from './route-table';

/**
 * What the custom request `ciRoutes/workspaceRoutes` answers: every route of every route file the
 * workspace index holds, grouped by application, as the routes explorer shows them. The server
 * sends the notification `ciRoutes/routesChanged` (no params) when a route file's routes may have
 * changed: an edit analysed, a file changed on disk, the index built; clients ask again then.
 */
export interface WorkspaceRoutesResult {
  /** The first scan of the workspace is under way: more route files may come. */
  indexing: boolean;
  applications: WorkspaceApplication[];
}

export interface WorkspaceApplication {
  /** The application folder (`…/application`) as a file URI; for route files in no application's layout, their folder's. */
  uri: string;
  /** The folder from its workspace folder (`application`, `site/application`), for labels. */
  name: string;
  /** Its route files in the order its router reads them: the main file, then each module's. */
  files: WorkspaceRouteFile[];
}

export interface WorkspaceRouteFile {
  uri: string;
  /** Its path from the project folder (the application folder's parent): `application/config/routes.php`. */
  name: string;
  /** The module whose routes file it is, if one (its targets are relative to the module). */
  module?: string;
  /** The first request method's fatal error, if one stops the file (its rows are then what it declares without the failing statements). */
  error?: string;
  /** The analysis limits its evaluation reached: the rows are then not all the file does. */
  limits?: string[];
  /** Its routes, methods merged (as `ci-routes list` lists them), in table order; settings such as default_controller left out. */
  rows: WorkspaceRoute[];
  /** Rows left out past MAX_WORKSPACE_FILE_ROWS. */
  more?: number;
}

export interface WorkspaceRoute {
  /** The request methods whose final table holds the route, in REQUEST_METHODS order. */
  methods: string[];
  uri: string;
  target: string;
  names: string[];
  /** Why its path cannot be known statically, for an unknown route (`uri` is then `‹unknown path›`). */
  unknown?: string;
  /** Its declaration: the Route:: call or the `$route[...] =` assignment (in an included file, that file). */
  location?: ProtocolLocation;
  /** The declaration's first line as written (at most MAX_DECLARATION_TEXT characters), to name it. */
  declaration?: string;
}

/** Rows sent at most per route file. */
export const MAX_WORKSPACE_FILE_ROWS = 10_000;
/** Characters of a declaration's first line sent at most. */
export const MAX_DECLARATION_TEXT = 160;
