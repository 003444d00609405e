import { NameChoices } from '../../../shared/analysis/features/completion/completion';
import { nameDeclarations, namedRecordsOf } from '../../../shared/analysis/model/name-declarations';
import type { RouteRecord } from '../../../shared/library/records';
import { sameItems } from '../../../shared/util/same-items';
import type { FileEvaluation } from '../../../shared/evaluate/evaluate-file';
import type { WorkspaceIndex } from './workspace-index';

interface Entry {
  /** The workspace index's names version they were built for. */
  version: number;
  choices: NameChoices;
}

/**
 * The route names `named('` completes: the workspace's, and the document's own as last analysed
 * (it may not be a route file the index knows). Built again only when either changes; the
 * workspace's alone (completion in views and controllers) and each route file's are kept apart,
 * so that completing in one does not throw away the other's.
 */
export class NameChoicesCache {
  private workspace: Entry | undefined;
  private readonly withOwn = new WeakMap<FileEvaluation, Entry>();
  /**
   * The last route file's choices with the named records they were built from: an edit that
   * leaves the names alone makes a new evaluation with the same named records, and takes them
   * (sorted, their documentation written) instead of sorting thousands of names again.
   */
  private lastOwn: (Entry & { records: RouteRecord[] }) | undefined;

  for(index: WorkspaceIndex, evaluation: FileEvaluation | undefined): NameChoices {
    const version = index.namesVersion();
    const cached = evaluation ? this.withOwn.get(evaluation) : this.workspace;
    if (cached?.version === version) return cached.choices;
    if (!evaluation) {
      this.workspace = { version, choices: new NameChoices(index.allNames()) };
      return this.workspace.choices;
    }
    const records = namedRecordsOf(evaluation);
    const last = this.lastOwn;
    if (last?.version === version && sameItems(last.records, records)) {
      this.withOwn.set(evaluation, last);
      return last.choices;
    }
    const names = index.allNames();
    for (const [n, d] of nameDeclarations(evaluation)) names.set(n, { from: d.from, methods: d.methods });
    const entry = { version, choices: new NameChoices(names), records };
    this.withOwn.set(evaluation, entry);
    this.lastOwn = entry;
    return entry.choices;
  }
}
