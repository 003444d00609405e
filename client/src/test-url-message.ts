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

/** The lines of the Test URL notification (and of its log line): the request, the route, the target, the controller. */
export function testUrlLines(method: string, urlPath: string, result: TestUrlAnswer): string[] {
  return [
    `${method} /${urlPath.replace(/^\/+/, '')}`,
    result.error ? `error: ${result.error}` : `route: ${result.matched_key ?? '(none matches: the URI segments are used as they are)'}`,
    result.target_segments ? `target: ${result.target_segments.join('/')}` : '',
    result.controller?.found && result.controller.target
      ? `controller: ${result.controller.target.file} → ${result.controller.target.method}(${result.controller.target.args.join(', ')})`
      : `controller: ${result.controller?.reason ?? `${result.dispatch.class}::${result.dispatch.method}`}`,
    ...(result.limits ?? []).map((limit) => `not the whole file: ${limit}`),
  ].filter(Boolean);
}
