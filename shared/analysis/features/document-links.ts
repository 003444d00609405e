import type { Span } from '../../php/ast';
import type { FileEvaluation } from '../../evaluate/evaluate-file';
import type { AppTree } from '../../router/app-tree';
import { ucfirst } from '../../router/ci-router';
import type { TargetRouting } from '../../router/hmvc/locate-target';
import { dispatchTarget, translatesDashes } from '../model/target-dispatch';
import { targetLiterals } from '../model/target-literals';

export interface TargetLink {
  /** The target's text between its quotes. */
  span: Span;
  /** The controller file, relative to the application folder. */
  file: string;
  tooltip: string;
}

/**
 * A link from each target literal to the controller file it dispatches to, located as the router does. No
 * link when a back-reference chooses the controller (`$1/show`) or no controller file exists.
 */
export function targetLinks(text: string, evaluation: FileEvaluation, routing: TargetRouting | AppTree): TargetLink[] {
  const translate = translatesDashes(evaluation);
  const out: TargetLink[] = [];
  for (const { literal } of targetLiterals(text, evaluation)) {
    const dispatch = dispatchTarget(literal.value, routing, translate);
    if (!dispatch) continue;
    const t = dispatch.target;
    const method = dispatch.methodVaries ? `${t.method} (method from the URI)` : `${t.method}()`;
    out.push({ span: literal.contentSpan, file: t.file, tooltip: `${ucfirst(t.class)}::${method} in ${t.file}` });
  }
  return out;
}
