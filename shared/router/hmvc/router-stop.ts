import { NO_DEFAULT_ROUTE } from '../ci-router';

/**
 * Why a request ended inside the router, before dispatch: Bonfire's router calls show_404(),
 * show_error() ends it with an error page, a PHP error is uncaught, or what follows depends on a
 * value the analysis cannot know.
 */
export class RouterStop extends Error {
  constructor(
    readonly kind: 'show_404' | 'error' | 'unknown',
    /** show_404()'s argument, the error as the vectors write it (`Class: message`), or the reason. */
    readonly detail: string,
  ) {
    super(detail);
  }
}

/** How the vectors name show_error()'s error page (the harness's exception class). */
const SHOW_ERROR = 'OracleShowError: ';

/** show_error() as the vectors record it. */
export function showError(message: string, status = 500): RouterStop {
  return new RouterStop('error', `${SHOW_ERROR}show_error(${status}): ${message}`);
}

/** A request's `error` as people read it: CodeIgniter's `show_error(500): …`, without the vectors' class name. */
export function shownError(error: string): string {
  return error.startsWith(SHOW_ERROR) ? error.slice(SHOW_ERROR.length) : error;
}

/** An uncaught PHP error (`TypeError: strpos(): …`). */
export function phpError(phpClass: string, message: string): RouterStop {
  return new RouterStop('error', `${phpClass}: ${message}`);
}

/** A rejection CiRouter returns (no default route, or a default controller not known statically) as a stop. */
export function rejectionStop(rejected: string): RouterStop {
  return rejected === NO_DEFAULT_ROUTE ? showError(rejected) : new RouterStop('unknown', rejected);
}
