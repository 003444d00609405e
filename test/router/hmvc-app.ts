import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { evaluateRouteFile, type FileEvaluation } from '../../shared/evaluate/evaluate-file';
import { keyToString, type Value } from '../../shared/runtime/values';
import { valueToJson } from '../../shared/evaluate/outcome-json';
import { REQUEST_METHODS, type RequestMethod } from '../../shared/runtime/methods';
import { FileListTree } from '../../shared/router/app-tree';
import type { RouterFlavour } from '../../shared/router/hmvc/flavour';
import { evaluatedModuleRouteFiles, type ModuleRouteFiles } from '../../shared/router/hmvc/module-route-files';
import { routeRequest, type HmvcRouting } from '../../shared/router/hmvc/route-request';

/** Every file under a folder, `/`-separated, relative to it. */
export function listFiles(dir: string, prefix = ''): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? listFiles(path.join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`]))
    .sort();
}

/** An application folder on disk read as the engine sees it: a file list, the main routes evaluated, module files on demand. */
export class HmvcTestApp {
  readonly tree: FileListTree;
  readonly main: FileEvaluation;
  private readonly modules: ModuleRouteFiles;

  constructor(
    readonly dir: string,
    readonly flavour: RouterFlavour,
    /** Evaluate every route file one request method at a time (the reference the shared pass must equal). */
    perMethod = false,
  ) {
    this.tree = new FileListTree(listFiles(dir).filter((f) => f !== 'case.json'));
    const read = (rel: string): string | undefined => (this.tree.isFile(rel) ? fs.readFileSync(path.join(dir, rel), 'utf8') : undefined);
    const constantsText = read('application/config/constants.php');
    const constants: ReadonlyMap<string, Value> = constantsText === undefined ? new Map() : evaluateRouteFile(constantsText, { file: 'constants.php' }).constants;
    const dialect = flavour === 'bonfire' ? 'bonfire' : 'spec';
    this.main = evaluateRouteFile(read('application/config/routes.php') ?? '<?php', { dialect, constants, perMethod, file: 'application/config/routes.php' });
    this.modules = evaluatedModuleRouteFiles({ main: this.main, read, shareRouteLibrary: flavour === 'bonfire', evaluate: { dialect, perMethod } });
  }

  /** The routing with the module tables in the vectors' JSON form. */
  routeAsJson(uri: string, method: RequestMethod): Record<string, unknown> {
    const routing = this.route(uri, method);
    const tables = routing.module_route_tables.map(({ module, routes }) => ({
      module,
      routes: [...routes.entries()].map(([k, v]) => [keyToString(k), valueToJson(v)]),
    }));
    return { ...routing, module_route_tables: tables };
  }

  route(uri: string, method: RequestMethod): HmvcRouting {
    const m = REQUEST_METHODS.indexOf(method);
    return routeRequest({
      flavour: this.flavour,
      root: this.tree,
      uri,
      method,
      routes: this.main.methods[m].routes,
      moduleRoutes: this.modules.forRequest(method),
      callClosure: (closure, args) => this.main.callClosure(m, closure, args),
    });
  }
}

/** The fields a route model must reproduce (README of conformance/hmvc), and those that explain a difference. */
export const MODEL_FIELDS = ['main_matched_key', 'module_route', 'module', 'directory', 'class', 'method', 'rsegments', 'controller_file', '404', 'error'];
export const EXPLAINING_FIELDS = [
  'segments', 'default_controller_route', 'main_target_segments', 'stage_404', 'show_404',
  'used_default_controller', 'used_404_override', 'dispatch_404_override', 'router', 'locate_calls', 'module_route_tables',
];

/** Each URI's differing fields, as `uri "x": field: expected … got …` lines. */
export function differences(expected: Record<string, unknown>[], route: (uri: string) => object, fields: string[]): string[] {
  const out: string[] = [];
  for (const want of expected) {
    const got = route(String(want.uri)) as Record<string, unknown>;
    for (const field of fields) {
      if (!(field in want)) continue;
      try {
        assert.deepStrictEqual(got[field], want[field]);
      } catch {
        out.push(`uri ${JSON.stringify(want.uri)}: ${field}: expected ${JSON.stringify(want[field])}, got ${JSON.stringify(got[field])}`);
      }
    }
  }
  return out;
}
