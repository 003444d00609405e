/**
 * Completion inside a target (`$to`) string, one segment at a time: modules, controller folders
 * and controllers first, then a controller's public methods. Follows the HMVC routers' locate():
 * a module shadows an application controller or folder of the same name. In a module's routes
 * file targets are relative to the module: its own controllers only, without the module's name.
 */

import type { Span } from '../../../php/ast';
import type { ControllerListing, ListedController } from '../../../workspace/controller-catalog';
import { ucfirst } from '../../../router/ci-router';
import type { MoreCompletionEntry } from './completion';
import type { StringAtCursor } from '../../model/cursor-context';
import { markdownCode as code } from '../../../util/escape';

interface Candidate {
  path: string[];
  kind: MoreCompletionEntry['kind'];
  detail: string;
  documentation: string;
}


function addController(out: Candidate[], base: string[], c: ListedController, folderOf: (parts: string[]) => string): void {
  const parts = c.name.split('/');
  for (let i = 1; i < parts.length; i++) {
    const folder = parts.slice(0, i);
    out.push({ path: [...base, ...folder], kind: 'folder', detail: folderOf(folder), documentation: `Controllers in ${code(folderOf(folder))}.` });
  }
  const cls = ucfirst(parts[parts.length - 1]);
  const path = [...base, ...parts];
  out.push({ path, kind: 'controller', detail: c.file, documentation: `Controller ${code(cls)} in ${code(c.file)}; its \`index()\` when no method follows.` });
  for (const m of c.methods) {
    out.push({ path: [...path, m], kind: 'controller-method', detail: `${cls}::${m}()`, documentation: `${code([...path, m].join('/'))} dispatches to ${code(`${cls}::${m}()`)} in ${code(c.file)}.` });
  }
}

/** Every path a target can spell, modules before application controllers. */
function candidates(listing: ControllerListing): Candidate[] {
  const out: Candidate[] = [];
  const modules = listing.modules();
  for (const module of modules) {
    const controllers = listing.controllers(module);
    out.push({ path: [module], kind: 'module', detail: `modules/${module}/`, documentation: `HMVC module ${code(module)} (${controllers.length} controller${controllers.length === 1 ? '' : 's'}).` });
    for (const c of controllers) addController(out, [module], c, (f) => `modules/${module}/controllers/${f.join('/')}/`);
    // `module/method` reaches the module's controller named like the module.
    const own = controllers.find((c) => c.name === module);
    for (const m of own?.methods ?? []) {
      out.push({ path: [module, m], kind: 'controller-method', detail: `${ucfirst(module)}::${m}()`, documentation: `${code(`${module}/${m}`)} dispatches to ${code(`${ucfirst(module)}::${m}()`)} in ${code(own!.file)} (the module's own controller).` });
    }
  }
  const shadowed = new Set(modules.map((m) => m.toLowerCase()));
  for (const c of listing.controllers()) {
    if (shadowed.has(c.name.split('/')[0].toLowerCase())) continue;
    addController(out, [], c, (f) => `controllers/${f.join('/')}/`);
  }
  return out;
}

/** What a module's routes file can spell: the module's paths without the module's name (parse_routes() puts it back). */
function moduleRelative(all: Candidate[], module: string): Candidate[] {
  const own = module.toLowerCase();
  return all.filter((c) => c.path.length > 1 && c.path[0].toLowerCase() === own).map((c) => ({ ...c, path: c.path.slice(1) }));
}

/** Entries for the segment being typed in a target string; `module`: the module whose routes file it is. */
export function completeTargetSegments(text: string, offset: number, string: StringAtCursor, listing: ControllerListing, module?: string): MoreCompletionEntry[] {
  const parts = string.typed.split('/');
  const partial = parts.pop() ?? '';
  const done = parts.map((p) => p.toLowerCase());
  // A back-reference or placeholder decides the rest per request: nothing to offer.
  if (done.some((p) => p.includes('$') || p.includes('{'))) return [];
  let end = offset;
  while (end < text.length && !'/\r\n'.includes(text[end]) && text[end] !== string.quote) end++;
  const replace: Span = { start: offset - partial.length, end };
  const seen = new Set<string>();
  const out: MoreCompletionEntry[] = [];
  for (const c of module === undefined ? candidates(listing) : moduleRelative(candidates(listing), module)) {
    if (c.path.length !== done.length + 1 || !done.every((p, i) => c.path[i].toLowerCase() === p)) continue;
    const label = c.path[done.length];
    if (seen.has(label.toLowerCase())) continue;
    seen.add(label.toLowerCase());
    out.push({ label, kind: c.kind, detail: c.detail, documentation: c.documentation, replace, sortText: String(out.length).padStart(4, '0') });
  }
  return out;
}
