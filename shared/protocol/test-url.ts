import type { RoutedRequest } from '../analysis/model/request-routing';
import type { ProtocolLocation } from './route-table';

/**
 * What `ciRoutes/testUrl` answers: the request routed as the application's router routes it (the
 * HMVC vectors' fields: `method` is the controller's method), and where its routes are declared.
 */
export interface TestUrlResult extends Omit<RoutedRequest, 'main_span' | 'module_declaration' | 'order_unsure'> {
  /** The request method asked for. */
  request_method: string;
  /** How the router was chosen (`detected from …`, `given`, `default: …`). */
  router_source: string;
  /** As RouteTableResult's: the answer may not be what PHP does. */
  limits?: string[];
  /** Routes of the table whose path or target cannot be known statically (`line 4: reason`): one may take the URI first. */
  unknownRoutes?: string[];
  /** Another route matches too and may come first (their order depends on an undecidable condition). */
  orderUnsure?: string;
  /** The controller file, when one serves the request. */
  controllerUri?: string;
  /** The declaration of the main route that matched. */
  location?: ProtocolLocation;
  /** The declaration of the module route that matched. */
  moduleLocation?: ProtocolLocation;
}


/** What `ciRoutes/testUrl` answers when the file gives no table to route with (PHP stops, or no `$route`). */
export interface TestUrlError {
  request_method: string;
  uri: string;
  error: string;
  limits?: string[];
  unknownRoutes?: string[];
}

/** Either answer, as the extension reads it: every field of both, each maybe absent. */
export type TestUrlAnswer = Partial<TestUrlResult> & Partial<Omit<TestUrlError, 'error'>>;
