import * as fs from 'node:fs';
import * as path from 'node:path';
import { ROOT } from '../helpers/paths';

/** The project's package.json. */
export const MANIFEST = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Record<string, any>;

/** What `npm pack` writes in the checkout, and what `npm run package` writes. */
export const TARBALL = process.env.CI_ROUTES_TARBALL ?? path.join(ROOT, `${MANIFEST.name}-${MANIFEST.version}.tgz`);
export const VSIX = path.join(ROOT, 'ci-routes.vsix');

/**
 * The before() of a suite about a built artifact: skips it with a message when the artifact is
 * missing or was built from other bundles than dist/ holds (fails instead under
 * REQUIRE_PACKAGE=1, as CI runs, where .ci/run builds both).
 */
export function skipUnless(context: Mocha.Context, problem: string | undefined): void {
  if (problem === undefined) return;
  if (process.env.REQUIRE_PACKAGE === '1') throw new Error(problem);
  console.log(`      (skipped: ${problem})`);
  context.skip();
}
