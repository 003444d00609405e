import { NameChoices } from '../../../shared/analysis/completion';
import { nameDeclarations } from '../../../shared/analysis/produced';
import type { FileEvaluation } from '../../../shared/evaluate/evaluate-file';
import type { WorkspaceIndex } from './workspace-index';

/**
 * The route names `named('` completes: the workspace's, and the document's own as last analysed
 * (it may not be a route file the index knows). Built again only when either changes.
 */
export class NameChoicesCache {
  private key: { version: number; evaluation: FileEvaluation | undefined } | undefined;
  private choices: NameChoices | undefined;

  for(index: WorkspaceIndex, evaluation: FileEvaluation | undefined): NameChoices {
    const version = index.namesVersion();
    if (this.choices && this.key?.version === version && this.key.evaluation === evaluation) return this.choices;
    const names = index.allNames();
    if (evaluation) for (const [n, d] of nameDeclarations(evaluation)) names.set(n, { from: d.from, methods: d.methods });
    this.key = { version, evaluation };
    this.choices = new NameChoices(names);
    return this.choices;
  }
}

