import { messageText as m } from '../../shared/util/escape';

/** What `ciRoutes/testUrl` answers (the server's TestUrlResult, as far as the client reads it). */
export interface TestUrlAnswer {
  matched_key: string | null;
  target_segments: string[] | null;
  dispatch: { class: string; method: string; rsegments: string[] };
  controller: { found: boolean; reason?: string; target?: { file: string; method: string; args: string[] } } | null;
  controllerUri?: string;
  location?: { uri: string; range: { start: { line: number; character: number } } };
  error?: string;
  limits?: string[];
}

/**
 * The lines of the Test URL notification (and of its log line): the request, the route, the
 * target, the controller. What comes from the route file (and the typed URL) goes through
 * messageText: VS Code turns `[label](command:…)` in a notification into a live link.
 */
export function testUrlLines(method: string, urlPath: string, result: TestUrlAnswer): string[] {
  return [
    `${m(method)} /${m(urlPath.replace(/^\/+/, ''))}`,
    result.error ? `error: ${m(result.error)}` : `route: ${result.matched_key === null ? '(none matches: the URI segments are used as they are)' : m(result.matched_key)}`,
    result.target_segments ? `target: ${m(result.target_segments.join('/'))}` : '',
    result.controller?.found && result.controller.target
      ? `controller: ${m(result.controller.target.file)} → ${m(`${result.controller.target.method}(${result.controller.target.args.join(', ')})`)}`
      : `controller: ${m(result.controller?.reason ?? `${result.dispatch.class}::${result.dispatch.method}`)}`,
    ...(result.limits ?? []).map((limit) => `not the whole file: ${m(limit)}`),
  ].filter(Boolean);
}
