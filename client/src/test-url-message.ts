import { messageText as m } from '../../shared/util/escape';
import { controllerCall, type TestUrlAnswer } from '../../shared/protocol/test-url';

interface Place {
  uri: string;
  range: { start: { line: number; character: number } };
}

/** What `ciRoutes/testUrl` answers (the server's declaration, shared). */
export type { TestUrlAnswer };

/** `path/to/file.php:12` of a place, for the notification (the last folders are enough to tell it). */
function placeOf(place: Place | undefined): string {
  if (!place) return '';
  let file = place.uri.replace(/^file:\/\//, '');
  try {
    file = decodeURIComponent(file);
  } catch {
    // shown as sent
  }
  file = file.split('/').slice(-4).join('/');
  return ` (${m(file)}:${place.range.start.line + 1})`;
}

/** The main route line: the key and where it is declared, or why there is none. */
function mainRouteLine(r: TestUrlAnswer): string {
  if (r.default_controller_route) return 'main route: (none: an empty URI goes to the default controller)';
  if (!r.main_matched_key) return 'main route: (none matches: the URI segments are used as they are)';
  const target = r.main_target_segments ? ` → ${m(r.main_target_segments.join('/'))}` : '';
  return `main route: ${m(r.main_matched_key)}${target}${placeOf(r.location)}`;
}

function moduleRouteLine(r: TestUrlAnswer): string {
  if (!r.flavour || r.flavour === 'ci') return '';
  if (!r.module_route) return 'module route: (none matches)';
  return `module route: ${m(r.module_route.key)} → ${m(r.module_route.value)} (module ${m(r.module_route.module)})${placeOf(r.moduleLocation)}`;
}

function controllerLine(r: TestUrlAnswer): string {
  if (r.controller_file && r.class) {
    return `controller: ${m(controllerCall(r))} in ${m(r.controller_file)}`;
  }
  if (r.error) return '';
  const why = r.controller && !r.controller.found ? r.controller.reason : '';
  return `controller: (none) ${m(why)}`.trimEnd();
}

/**
 * The lines of the Test URL notification (and of its log line): the request, the router, the
 * main route, the module route, the controller. What comes from the route files (and the typed
 * URL) goes through messageText: VS Code turns `[label](command:…)` in a notification into a live link.
 */
export function testUrlLines(method: string, urlPath: string, result: TestUrlAnswer): string[] {
  return [
    `${m(method)} /${m(urlPath.replace(/^\/+/, ''))}${result.flavour ? `  (router ${m(result.flavour)})` : ''}`,
    result.error && result.main_matched_key === undefined ? '' : mainRouteLine(result),
    moduleRouteLine(result),
    controllerLine(result),
    result.error ? `error: ${m(result.error)}` : '',
    result.uri_refused ? `why: ${m(result.uri_refused.why)}` : '',
    result.unknown ? `not known statically: ${m(result.unknown)}` : '',
    ...(result.limits ?? []).map((limit) => `not the whole file: ${m(limit)}`),
    result.orderUnsure ? `unsure: ${m(result.orderUnsure)}` : '',
    ...(result.conditional ?? []).map((c) => `unsure: ${m(c)}`),
    result.unknownRoutes?.length ? `unsure: ${result.unknownRoutes.length} route${result.unknownRoutes.length === 1 ? '' : 's'} cannot be known statically (${m(result.unknownRoutes.join('; '))}), and may take this URI first` : '',
  ].filter(Boolean);
}
