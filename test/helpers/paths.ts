import * as path from 'node:path';

/** The repository root (tests run from out/test/...). */
export const ROOT = path.resolve(__dirname, '..', '..', '..');
export const CONFORMANCE = path.join(ROOT, 'test', 'conformance');
/** The material folder beside the checkout, present on developers' machines and in CI. */
export const SHARED_CONFORMANCE = path.resolve(ROOT, '..', 'shared', 'conformance');
export const EXAMPLE_APP = path.join(ROOT, 'examples', 'bonfire-app');
