import { NameChoices } from '../../../shared/analysis/features/completion/completion';
import { nameDeclarations } from '../../../shared/analysis/model/name-declarations';
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

  for(index: WorkspaceIndex, evaluation: FileEvaluation | undefined): NameChoices {
    const version = index.namesVersion();
    const cached = evaluation ? this.withOwn.get(evaluation) : this.workspace;
    if (cached?.version === version) return cached.choices;
    const names = index.allNames();
    if (evaluation) for (const [n, d] of nameDeclarations(evaluation)) names.set(n, { from: d.from, methods: d.methods });
    const entry = { version, choices: new NameChoices(names) };
    if (evaluation) this.withOwn.set(evaluation, entry);
    else this.workspace = entry;
    return entry.choices;
  }
}
