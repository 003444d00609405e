import { MODULES, targetOf, type Controller } from './gen-controllers';
import { BONFIRE_MIX, generateRouteFile, type Position, type RouteFilePlan, type RouteMix } from './gen-routes';
import { Random } from './random';

/**
 * The route files the bench draws: a mix of constructs per name. `bonfire` is the bench's original
 * file (its text unchanged, so earlier figures stay comparable); the `*-heavy` mixes lean on one
 * construct; `one-per-line` is one declaration per line in the mix an editor user reported; `app`
 * is a whole application (main file, a dozen modules' route files, an included file and the
 * environment's route file) whose declarations add up to the size.
 */
export const MIXES: Record<string, RouteMix> = {
  bonfire: BONFIRE_MIX,
  'context-heavy': { label: 'context-heavy', weights: { context: 45, verbs: 20, resources: 10, prefix: 8, assign: 8, any: 5, block: 4 }, contextsPerPrefix: 6 },
  'any-heavy': { label: 'any-heavy', weights: { wild: 45, page: 15, any: 10, verbs: 15, assign: 10, resources: 5 } },
  'prefix-heavy': { label: 'prefix-heavy', weights: { prefix: 50, nested: 20, verbs: 12, resources: 8, assign: 6, any: 4 } },
  'assign-heavy': { label: 'assign-heavy', weights: { assign: 50, legacy: 25, verbs: 10, resources: 5, prefix: 5, any: 5 } },
  'resources-heavy': { label: 'resources-heavy', weights: { resources: 60, verbs: 15, prefix: 10, assign: 8, any: 5, block: 2 } },
  'one-per-line': { label: 'one-per-line', weights: { verbs: 25, resources: 20, page: 12, legacy: 12, context: 8, block: 5, prefix: 18 }, onePerLine: true, contextsPerPrefix: 1 },
};

/** Every mix, `app` last. */
export const MIX_NAMES = [...Object.keys(MIXES), 'app'] as const;
/** What `npm run bench` measures when no --mix is given (three mixes keep sizes 1,000 and 10,000 under 10 minutes). */
export const DEFAULT_MIXES = ['bonfire', 'one-per-line', 'app'];

/** A route file of an application other than its main file. */
export interface ExtraRouteFile {
  /** Relative to the application folder. */
  rel: string;
  text: string;
  declarations: number;
  /** Its module, for a module's routes file. */
  module?: string;
}

/** What a mix writes: the main route file's plan, and for `app` the application's other route files. */
export interface MixPlan {
  mix: string;
  main: RouteFilePlan;
  extra: ExtraRouteFile[];
  /** For `app`: an edit site in one module's routes file (a route key character after `<module>/`). */
  moduleEdit?: { rel: string; edit: Position & { original: string } };
  /** Declarations in all the route files. */
  declarations: number;
}

/** The modules that get a routes file in `app`. */
export const APP_MODULES = 12;
export const INCLUDED_FILE = 'config/routes_legacy.php';
export const ENVIRONMENT_FILE = 'config/development/routes.php';

const HEAD = "<?php\ndefined('BASEPATH') OR exit('No direct script access allowed');\n";

export function generateMix(mix: string, size: number, controllers: Controller[], seed: number): MixPlan {
  if (mix === 'app') return generateApp(size, controllers, seed);
  const m = MIXES[mix];
  if (!m) throw new Error(`unknown mix '${mix}' (expected ${MIX_NAMES.join(', ')})`);
  const main = generateRouteFile(size, controllers, seed, m);
  return { mix, main, extra: [], declarations: main.declarations };
}

/**
 * A whole application of `size` declarations in all: the main file (40%, the one-per-line mix,
 * with an include of config/routes_legacy.php before its map()), the included file (10%: `$route`
 * entries and verb routes), config/development/routes.php (5%: `$route` entries, read after the
 * main file as CodeIgniter's router does) and a dozen modules' config/routes.php (the rest: keys
 * under `<module>/`, module-relative targets).
 */
function generateApp(size: number, controllers: Controller[], seed: number): MixPlan {
  const rnd = new Random(seed ^ 0x5eed);
  const includedSize = Math.max(2, Math.round(size * 0.1));
  const envSize = Math.max(2, Math.round(size * 0.05));
  const modulesSize = Math.max(APP_MODULES * 2, Math.round(size * 0.45));
  const mainSize = size - includedSize - envSize - modulesSize;
  if (mainSize < 20) throw new Error(`app: ${size} declarations are too few (at least 200)`);
  const base = generateRouteFile(mainSize, controllers, seed, { ...MIXES['one-per-line'], label: 'app' });
  const lines = base.text.split('\n');
  const mapAt = lines.indexOf('$route = Route::map($route);');
  lines.splice(mapAt, 0, `include APPPATH . '${INCLUDED_FILE}';`, '');
  const main: RouteFilePlan = { ...base, text: lines.join('\n') };
  const topLevel = controllers.filter((c) => !c.module && !c.dir && c.name !== 'home');

  const included: string[] = [HEAD, '// Legacy URIs kept for old links (included by routes.php).'];
  for (let i = 0; i < includedSize; i++) {
    const c = rnd.pick(topLevel);
    included.push(i % 2 ? `$route['old-${i}/(:num)'] = '${targetOf(c)}/show/$1';` : `Route::get('old-${i}', '${targetOf(c)}/index');`);
  }
  const env: string[] = [HEAD, '// Development only: read after config/routes.php.'];
  for (let i = 0; i < envSize; i++) env.push(`$route['dev-${i}/(:any)'] = '${targetOf(rnd.pick(topLevel))}/show/$1';`);

  const extra: ExtraRouteFile[] = [
    { rel: INCLUDED_FILE, text: `${included.join('\n')}\n`, declarations: includedSize },
    { rel: ENVIRONMENT_FILE, text: `${env.join('\n')}\n`, declarations: envSize },
  ];
  const modules = MODULES.filter((m) => controllers.some((c) => c.module === m)).slice(0, APP_MODULES);
  let moduleEdit: MixPlan['moduleEdit'];
  modules.forEach((m, k) => {
    const n = Math.floor(modulesSize / modules.length) + (k < modulesSize % modules.length ? 1 : 0);
    const own = controllers.filter((c) => c.module === m);
    const out: string[] = [HEAD, `// ${m} module routes (Modular Extensions): keys start with the module, targets are the module's controllers.`];
    const sites: (Position & { original: string })[] = [];
    for (let i = 0; i < n; i++) {
      const c = own[i % own.length];
      const key = `${c.name}-${i}`;
      sites.push({ line: out.join('\n').split('\n').length, character: `$route['${m}/`.length, original: key.charAt(0) });
      out.push(i % 3 === 2 ? `$route['${m}/${key}/(:num)'] = '${c.name}/show/$1';` : `$route['${m}/${key}'] = '${c.name}/${i % 3 ? 'create_new' : 'index'}';`);
    }
    const rel = `modules/${m}/config/routes.php`;
    extra.push({ rel, text: `${out.join('\n')}\n`, declarations: n, module: m });
    if (k === 0) moduleEdit = { rel, edit: sites[Math.floor(sites.length / 2)] };
  });
  const declarations = main.declarations + extra.reduce((a, f) => a + f.declarations, 0);
  return { mix: 'app', main, extra, moduleEdit, declarations };
}

/** Parses a --mix value: names separated by commas, or `all`. */
export function parseMixes(v: string): string[] {
  const names = v.split(',').map((s) => s.trim()).filter(Boolean);
  if (names.length === 1 && names[0] === 'all') return [...MIX_NAMES];
  const unknown = names.filter((n) => !(MIX_NAMES as readonly string[]).includes(n));
  if (!names.length || unknown.length) throw new Error(`expected mixes among ${MIX_NAMES.join(', ')} (or all), got '${v}'`);
  return [...new Set(names)];
}
