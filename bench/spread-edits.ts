import type { SizeWorkspace } from './generate';
import type { LspDriver } from './lsp-driver';
import { budgeted, figure, type Figure } from './stats';

/**
 * One-character edits at `reps` top-level GET routes spread down the file, each left in place
 * (its path's first letter becomes `y`, or `x` if it was one), timed by the server as the session's other edits are.
 * The session's main edits alternate one statement between two texts, which every memo serves;
 * a user moves about the file, and each of these edits starts from a checkpoint of its own.
 * What a server keeps per version edited shows in the RSS read after them (once idle).
 */
export async function spreadEdits(driver: LspDriver, ws: SizeWorkspace, reps: number, version: number, timeoutMs: () => number): Promise<{ figure: Figure; version: number }> {
  const sites = ws.plan.editSites.filter((site) => site.line !== ws.plan.edit.line);
  const count = Math.min(reps, sites.length);
  const server: number[] = [];
  for (let i = 0; i < count; i++) {
    if (timeoutMs() < 2_000) break;
    const site = sites[Math.floor(((i + 0.5) * sites.length) / count)];
    version++;
    const r = await driver.edit(ws.routeFile, version, site, site.original === 'y' ? 'x' : 'y', timeoutMs());
    if (r.server) server.push(r.server.totalMs);
  }
  if (count === 0) return { figure: figure([], 'n/a', 'no top-level GET route to edit'), version };
  if (server.length === 0) return { figure: figure([], 'n/a', 'the server reports no timing (ciRoutes/analysisTiming)'), version };
  return { figure: budgeted(server, count, 'edits'), version };
}
