import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { controllerSource, planControllers, type Controller } from './gen-controllers';
import { type Position, type RouteFilePlan } from './gen-routes';
import { generateMix, type MixPlan } from './mixes';
import { Random } from './random';

export const SEED = 20_240_601;
export const VIEWS = 60;

/** One workspace folder: a route file of `size` declarations and the 2,000 controllers. */
export interface SizeWorkspace {
  /** The mix drawn (see mixes.ts). */
  mix: string;
  size: number;
  /** The mix's route files: the main one's plan is `plan`. */
  mixPlan: MixPlan;
  folder: string;
  routeFile: string;
  plan: RouteFilePlan;
  /** A controller that calls `Route::named('<plan.probeName>')`. */
  probeFile: string;
  probeText: string;
  /** Right after `named('` in the probe controller. */
  completion: Position;
  /** Inside the name in the probe controller. */
  definition: Position;
  /** Controller files written (`application/controllers/` and module controllers). */
  controllers: number;
  /** For `app`: a module's routes file and a place to edit in it. */
  moduleEdit?: { file: string; text: string; edit: Position & { original: string } };
  /** Other PHP files written (views, constants, the mix's other route files). */
  otherFiles: number;
}

export interface BenchWorkspace {
  root: string;
  sizes: SizeWorkspace[];
  remove(): void;
}

const CONSTANTS = `<?php
defined('BASEPATH') OR exit('No direct script access allowed');

defined('SHOW_DEBUG_BACKTRACE') OR define('SHOW_DEBUG_BACKTRACE', TRUE);
defined('FILE_READ_MODE')  OR define('FILE_READ_MODE', 0644);
defined('FILE_WRITE_MODE') OR define('FILE_WRITE_MODE', 0666);
defined('DIR_READ_MODE')   OR define('DIR_READ_MODE', 0755);
defined('DIR_WRITE_MODE')  OR define('DIR_WRITE_MODE', 0755);
defined('EXIT_SUCCESS')  OR define('EXIT_SUCCESS', 0);
defined('EXIT_ERROR')    OR define('EXIT_ERROR', 1);

/* SITE_AREA is the first URI segment of the admin area (see routes.php). */
defined('SITE_AREA') || define('SITE_AREA', 'admin');
`;

function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

function viewSource(title: string, names: string[]): string {
  const links = names.map((n) => `        <li><a href="<?= site_url(Route::named('${n}')) ?>"><?= html_escape('${n}') ?></a></li>`);
  return [
    "<?php defined('BASEPATH') OR exit('No direct script access allowed'); ?>",
    `<h1>${title}</h1>`,
    '<nav>',
    '    <ul>',
    ...links,
    '    </ul>',
    '</nav>',
    '<?php foreach ($items as $item): ?>',
    '    <p><?= html_escape($item->title) ?></p>',
    '<?php endforeach; ?>',
    '',
  ].join('\n');
}

function positionOf(text: string, needle: string, delta: number): Position {
  const at = text.indexOf(needle);
  if (at < 0) throw new Error(`generator: '${needle}' not found in the probe controller`);
  const before = text.slice(0, at + delta);
  const line = before.split('\n').length - 1;
  return { line, character: at + delta - (before.lastIndexOf('\n') + 1) };
}

/**
 * Writes, under a new temporary folder, one workspace folder per size (`ws-<size>/application/`):
 * `config/routes.php` of that many declarations, `config/constants.php`, the same 2,000
 * controllers (one of them the probe that calls `Route::named()`), and views that link to
 * route names (one with a misspelt name). Deterministic: the same seed writes the same files.
 */
export function generateWorkspace(sizes: number[], seed = SEED, mixes: string[] = ['bonfire']): BenchWorkspace {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ci-routes-bench-'));
  const controllers: Controller[] = planControllers(new Random(seed));
  const probe = controllers.filter((c) => !c.module && !c.dir).pop() as Controller;
  const sources = new Map<Controller, string>();
  const bodyRandom = new Random(seed + 1);
  for (const c of controllers) if (c !== probe) sources.set(c, controllerSource(c, bodyRandom));
  const out: SizeWorkspace[] = [];
  for (const mix of mixes) for (const size of sizes) {
    // The bonfire mix keeps its folder name and seeds (the same seed writes the same files as before mixes).
    const folder = path.join(root, mix === 'bonfire' ? `ws-${size}` : `ws-${mix}-${size}`);
    const app = path.join(folder, 'application');
    const mixPlan = generateMix(mix, size, controllers, seed + size);
    const plan = mixPlan.main;
    const routeFile = path.join(app, 'config', 'routes.php');
    write(routeFile, plan.text);
    for (const f of mixPlan.extra) write(path.join(app, f.rel), f.text);
    if (mix === 'app') {
      // Modular Extensions, so that the router reads the modules' route files.
      write(path.join(app, 'third_party', 'MX', 'Router.php'), "<?php defined('BASEPATH') OR exit('No direct script access allowed');\n\nclass MX_Router extends CI_Router {}\n");
      write(path.join(app, 'core', 'MY_Router.php'), "<?php defined('BASEPATH') OR exit('No direct script access allowed');\n\nrequire APPPATH . 'third_party/MX/Router.php';\n\nclass MY_Router extends MX_Router {}\n");
      // Its config.php, which tells Modular Extensions' router there is no controller_suffix (targets
      // are checked), and sets CodeIgniter's default permitted_uri_chars (routes' reach is checked).
      write(path.join(app, 'config', 'config.php'), "<?php defined('BASEPATH') OR exit('No direct script access allowed');\n\n$config['base_url'] = '';\n$config['permitted_uri_chars'] = 'a-z 0-9~%.:_\\-';\n");
    }
    const moduleEdit = mixPlan.moduleEdit && { file: path.join(app, mixPlan.moduleEdit.rel), text: mixPlan.extra.find((f) => f.rel === mixPlan.moduleEdit!.rel)!.text, edit: mixPlan.moduleEdit.edit };
    write(path.join(app, 'config', 'constants.php'), CONSTANTS);
    const probeText = controllerSource(probe, new Random(seed + 2), plan.probeName);
    for (const c of controllers) write(path.join(app, c.file), c === probe ? probeText : (sources.get(c) as string));
    const rnd = new Random(seed + size + 3);
    for (let v = 0; v < VIEWS; v++) {
      const picked = Array.from({ length: rnd.int(1, 3) }, () => rnd.pick(plan.names));
      // One misspelt name: an unknown-route-name diagnostic in a file that is not a route file.
      if (v === VIEWS - 1) picked.push(`${plan.names[plan.names.length - 1]}x`);
      write(path.join(app, 'views', `section_${v}`, 'index.php'), viewSource(`Section ${v}`, picked));
    }
    const needle = `named('${plan.probeName}')`;
    out.push({
      mix,
      size,
      mixPlan,
      ...(moduleEdit ? { moduleEdit } : {}),
      folder,
      routeFile,
      plan,
      probeFile: path.join(app, probe.file),
      probeText,
      completion: positionOf(probeText, needle, "named('".length),
      definition: positionOf(probeText, needle, "named('".length + 2),
      controllers: controllers.length,
      otherFiles: VIEWS + 1 + mixPlan.extra.length + (mix === 'app' ? 2 : 0),
    });
  }
  return { root, sizes: out, remove: () => fs.rmSync(root, { recursive: true, force: true }) };
}
