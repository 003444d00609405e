import { analysisLimits } from '../../../evaluate/evaluate-file';
import type { Check } from '../core/context';
import { finding } from '../core/types';

/** Parse errors and evaluation limits, as the engine reported them. */
export const syntaxAndLimits: Check = ({ evaluation }) => [
  ...evaluation.parsed.problems.map((p) =>
    finding('syntax-error', p.span, `${capitalize(p.message)}: PHP refuses the whole file.`, { details: 'a ParseError: nothing of the file runs; the other statements are still analysed here' }),
  ),
  ...analysisLimits(evaluation).map((p) => finding('evaluation-limit', p.span, capitalize(p.message))),
];

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
