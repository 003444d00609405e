import type { SizeWorkspace } from './generate';
import type { LspDriver } from './lsp-driver';
import { budgeted, figure, type Figure } from './stats';

const TYPED = 'newpath/';

/**
 * Keystrokes as a user types: at the middle edit's place (the start of a route path), characters
 * inserted one after another, then deleted one by one as with Backspace; `keystrokes` in all,
 * timed by the server. Unlike the session's one-character replacements, each keystroke moves
 * everything below it by one character.
 */
export async function typeAndErase(driver: LspDriver, ws: SizeWorkspace, keystrokes: number, version: number, timeoutMs: () => number): Promise<{ figure: Figure; version: number }> {
  const { line, character } = ws.plan.edit;
  const typed = Math.max(1, Math.floor(keystrokes / 2));
  const server: number[] = [];
  let done = 0;
  for (let k = 0; k < typed && timeoutMs() >= 2_000; k++, done++) {
    const at = { line, character: character + k };
    const r = await driver.change(ws.routeFile, ++version, { start: at, end: at }, TYPED.charAt(k % TYPED.length), timeoutMs());
    if (r.server) server.push(r.server.totalMs);
  }
  for (let k = done; k > 0 && timeoutMs() >= 2_000; k--) {
    const r = await driver.change(ws.routeFile, ++version, { start: { line, character: character + k - 1 }, end: { line, character: character + k } }, '', timeoutMs());
    if (r.server) server.push(r.server.totalMs);
  }
  if (server.length === 0) return { figure: figure([], 'n/a', 'the server reports no timing (ciRoutes/analysisTiming)'), version };
  return { figure: budgeted(server, 2 * typed, 'keystrokes'), version };
}
