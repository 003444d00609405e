import type { FileEvaluation } from '../../evaluate/evaluate-file';
import { PhpArray, keyToString, type Value } from '../../runtime/values';
import { REQUEST_METHODS, type RequestMethod } from '../../runtime/methods';
import { isDynamicKey } from '../../library/records';
import { DEFAULT_SYMBOLS } from '../regular/pattern-automata';
import type { MainRoutes } from './main-routes';
import type { IncludedFile } from '../../php/ast';
import { toSpan } from './origins';
import { tableView } from './table-view';
import { neverConsulted, prefixRulesOut } from './module-uris';

/** A main route as a module's check reads it: its key, and where it is declared. */
export interface MainEntry {
  key: string;
  start: number;
  end: number;
  /** The included file it lies in, if not the main file itself. */
  file?: IncludedFile;
}

/** A main target that leads into the module: to one URI of it, or to URIs starting with `prefix`. */
export type MainLead = { uri: string } | { prefix: string };

/**
 * What one method's main table tells a module's check: its keys that may take one of the
 * module's URIs, in order, and the targets that lead into the module; or that it cannot be read
 * (a key that is not known, a target that may lead anywhere in the module).
 */
export type MainTable = { entries: MainEntry[]; into: MainLead[] } | { undecided: true };

/**
 * Where a main route's target may send a request, for `module`: nowhere in it; to one URI of it
 * (a target without back-references is the URI the module's routes file is read for); or
 * anywhere in it (a back-reference, a closure's answer, an unknown value).
 */
function leadsInto(value: Value, module: string): 'no' | MainLead | 'any' {
  if (typeof value !== 'string') return 'any';
  if (value === '') return 'no'; // a blocked path goes to the default controller, read on its own
  const literal = value.split('$')[0]!;
  // Module folders may be found whatever the case on some file systems: compared in lower case.
  if (prefixRulesOut(literal.toLowerCase(), module.toLowerCase())) return 'no';
  if (!value.includes('$')) return { uri: value };
  // `shop/orders/show/$1`: the URIs it makes start with what comes before the back-reference, and
  // go on with URI characters (what the back-references copy) and the target's own text.
  const ownText = value.replace(/\$\{?\d+\}?/g, '');
  return literal.toLowerCase().startsWith(`${module.toLowerCase()}/`) && [...ownText].every((c) => DEFAULT_SYMBOLS.includes(c)) ? { prefix: literal } : 'any';
}

function readMainTable(main: FileEvaluation, routes: PhpArray, method: RequestMethod, module: string): MainTable {
  const view = tableView(main, routes);
  const places = main.places;
  const verb = method === 'CLI' ? 'cli' : method.toLowerCase();
  const entries: MainEntry[] = [];
  const into: MainLead[] = [];
  for (let i = 0; i < view.keys.length; i++) {
    const key = view.keys[i]!;
    const origin = view.origins[i];
    let value: Value = view.values[i]!;
    // Dashes turned into underscores before the module is looked up: URIs are then not read as written.
    if (key === 'translate_uri_dashes') {
      if (value !== false) return { undecided: true };
      continue;
    }
    // The default controller and 404_override are looked up through the module's routes too.
    if (key === 'default_controller' || key === '404_override') {
      if (leadsInto(value, module) !== 'no') return { undecided: true };
      continue;
    }
    if ((origin && origin.kind === 'route' && origin.dynamic) || isDynamicKey(key)) return { undecided: true };
    if (value instanceof PhpArray) {
      const hit = [...value.entries()].find(([k]) => keyToString(k).toLowerCase() === verb);
      if (!hit) continue;
      value = hit[1];
    }
    const lead = leadsInto(value, module);
    if (lead === 'any') return { undecided: true };
    if (lead !== 'no') into.push(lead);
    // A key that takes none of the module's URIs takes nothing from its routes file.
    if (neverConsulted(key, module)) continue;
    const span = origin ? toSpan(origin, places) : { start: 0, end: 0 };
    entries.push(span.file ? { key, start: span.start, end: span.end, file: span.file } : { key, start: span.start, end: span.end });
  }
  return { entries, into };
}

/** Each method's main table as a module's check reads it (undefined where the main file has no table). */
export function mainTablesOf(main: MainRoutes | undefined, module: string): (MainTable | undefined)[] {
  if (!main) return [];
  // Methods often share one table: read once per table and method's verb (`$route[key]['post']`).
  const byTable = new Map<PhpArray, Map<string, MainTable>>();
  return main.evaluation.methods.map((result, m) => {
    if (!result.routes || result.error) return undefined;
    const method = REQUEST_METHODS[m]!;
    let byVerb = byTable.get(result.routes);
    if (!byVerb) byTable.set(result.routes, (byVerb = new Map()));
    let table = byVerb.get(method);
    if (!table) byVerb.set(method, (table = readMainTable(main.evaluation, result.routes, method, module)));
    return table;
  });
}

/**
 * What a module's routes file's check learns from the main routes, places aside: two versions of
 * the main file with the same fingerprint for a module give its check the same verdicts (the
 * places its findings point at may differ).
 */
export function mainRoutingFingerprint(tables: readonly (MainTable | undefined)[]): string {
  const seen = new Map<MainTable, number>();
  const parts: string[] = [];
  tables.forEach((table, m) => {
    if (!table) return void parts.push('-');
    const earlier = seen.get(table);
    if (earlier !== undefined) return void parts.push(`=${earlier}`);
    seen.set(table, m);
    if ('undecided' in table) return void parts.push('?');
    const leads = table.into.map((lead) => ('uri' in lead ? `u${lead.uri}` : `p${lead.prefix}`));
    parts.push(`${table.entries.map((e) => e.key).join('\u0001')}\u0002${leads.join('\u0001')}`);
  });
  return parts.join('\u0003');
}
