import { PhpArray, keyToString, type Key, type Value } from '../../../evaluate/values';
import { REQUEST_METHODS, type RequestMethod } from '../../../library/methods';
import type { EntryOriginInfo } from '../../../library/records';
import { InclusionChecker } from '../../inclusion';
import { CoverageWalk, DecisionMemo } from './coverage-walk';
import type { Check } from '../context';
import { MethodGroups, branchesOf, compatibleBranches, describeMethods, fromSpan } from '../../origins';
import { finding, type Finding } from '../types';

const RESERVED = new Set(['default_controller', 'translate_uri_dashes']);

interface Entry {
  key: string;
  origin: EntryOriginInfo;
  blocked: boolean;
}

/** The entries CodeIgniter tries under a method, in order (verb arrays without the verb are skipped). */
function candidates(routes: PhpArray, method: RequestMethod): Entry[] | undefined {
  const verb = method === 'CLI' ? 'cli' : method.toLowerCase();
  const out: Entry[] = [];
  for (const [k, v] of routes.entries()) {
    const key = keyToString(k as Key);
    if (RESERVED.has(key)) continue;
    const origin = routes.originOf(k) as EntryOriginInfo | undefined;
    if (!origin) continue;
    // A route whose key is unknown may match anything: what follows cannot be judged.
    if (origin.kind === 'route' && origin.dynamic) return out;
    let value: Value = v;
    if (v instanceof PhpArray) {
      const hit = [...v.entries()].find(([vk]) => keyToString(vk).toLowerCase() === verb);
      if (!hit) continue;
      value = hit[1];
    }
    out.push({ key, origin, blocked: value === '' && origin.kind === 'route' && origin.site.method === 'block' });
  }
  return out;
}

/** prefix('') and prefix('x/') are how such keys usually come about. */
function prefixHint(o: EntryOriginInfo): string {
  if (o.kind !== 'route' || o.prefix === '') return '';
  if (o.prefix === '/') return " prefix('') puts a '/' in front of it.";
  if (o.prefix.endsWith('//')) return ` prefix('${o.prefix.slice(0, -1)}') ends with '/', and prefix() adds another.`;
  return '';
}

function identity(o: EntryOriginInfo): string {
  return o.kind === 'route' ? `r${o.site.span.start}:${o.row ?? ''}` : `a${o.span.start}`;
}

/**
 * `unreachable-route`: every URI a route matches is matched first by earlier routes of the same
 * method (decided exactly on the patterns' regular languages). `shadowed-block`: the same for a
 * block() path, which therefore never blocks anything.
 */
export function reachability(checker: InclusionChecker = new InclusionChecker(), memo = new DecisionMemo()): Check {
  return ({ evaluation, describe }) => {
    const groups = new MethodGroups<{ entry: Entry; by: Entry[]; empty: boolean }>();
    memo.rotate();
    evaluation.methods.forEach((result, m) => {
      if (!result.routes || result.error) return;
      const method = REQUEST_METHODS[m];
      const list = candidates(result.routes, method) ?? [];
      const keys = list.map((e) => e.key);
      const conditional = list.some((e) => branchesOf(e.origin).length > 0);
      const walk = new CoverageWalk(checker, memo, keys);
      list.forEach((entry, i) => {
        // Routes in another branch of the same undecidable condition never run together.
        const branches = branchesOf(entry.origin);
        let earlierIdx: number[] | undefined;
        if (conditional && branches.length > 0) {
          earlierIdx = [];
          for (let j = 0; j < i; j++) if (compatibleBranches(branches, branchesOf(list[j].origin))) earlierIdx.push(j);
          if (earlierIdx.length === i) earlierIdx = undefined;
        }
        const c = earlierIdx ? (walk.skip(i), checker.coverage(entry.key, earlierIdx.map((j) => keys[j]))) : walk.coverage(i);
        if (c.kind === 'covered') {
          const by = c.by.map((b) => list[earlierIdx ? earlierIdx[b] : b]);
          groups.add(identity(entry.origin), method, () => ({ entry, by, empty: false }));
        } else if (c.kind === 'empty') {
          groups.add(identity(entry.origin), method, () => ({ entry, by: [], empty: true }));
        }
      });
    });
    const out: Finding[] = [];
    for (const { value, methods } of groups.entries()) {
      const { entry, by, empty } = value;
      const where = describeMethods(methods);
      const firsts = by.map((b) => `'${b.key}' (${describe.declaration(b.origin)})`).join(', ');
      const related = by.map((b) => ({ span: fromSpan(b.origin), message: `matches first: '${b.key}'` }));
      if (entry.blocked) {
        out.push(
          finding(
            'shadowed-block',
            fromSpan(entry.origin),
            empty
              ? `The blocked path '${entry.key}' matches no URI CodeIgniter can route, so the block does nothing.`
              : `The block of '${entry.key}' never takes effect under ${where}: every URI it matches is matched first by ${firsts}. Declare the block before those routes.`,
            { methods, related, unnecessary: true },
          ),
        );
        continue;
      }
      out.push(
        finding(
          'unreachable-route',
          fromSpan(entry.origin),
          empty
            ? `'${entry.key}' matches no URI CodeIgniter can route (URIs have no empty segments, no leading or trailing '/', and only letters, digits and ~%.:_- and spaces), so this route is never used.${prefixHint(entry.origin)}`
            : `'${entry.key}' is never reached under ${where}: every URI it matches is matched first by ${firsts}, and CodeIgniter uses the first route that matches. Declare it before them.`,
          { methods, related, unnecessary: true },
        ),
      );
    }
    return out;
  };
}
