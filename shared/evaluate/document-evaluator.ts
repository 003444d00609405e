import { StatementParser } from '../php/parse';
import { evaluateParsed, reuseStopped, type EvaluateOptions, type FileEvaluation } from './evaluate-file';
import { ReplayCache } from './replay';
import { sameValue } from './convert';
import type { Value } from './values';

export type DocumentOptions = Omit<EvaluateOptions, 'parser' | 'perMethod' | 'replay'>;

/**
 * Evaluates successive versions of one document, doing again only what an edit can change:
 * statements are re-parsed only when their text changed, and declarations whose text did not
 * change are replayed from the previous evaluation instead of being evaluated; when the script
 * stopped before the edit (an endless loop, a fatal error), the previous evaluation stands. The result equals
 * `evaluateRouteFile(text, options)` for every text (the property tests hold it to that).
 */
export class DocumentEvaluator {
  private readonly parser = new StatementParser();
  private readonly replay = new ReplayCache();
  private last: FileEvaluation | undefined;
  /** The text `last` is the evaluation of. */
  private lastText: string | undefined;
  /** Shared by this document's evaluations; a new one when options change (nothing carries over). */
  private lineage: object = {};
  /** Where the last update's time went (milliseconds). */
  lastTiming = { parseMs: 0, evaluateMs: 0 };

  constructor(private options: DocumentOptions = {}) {}

  /** New options (dialect, constants, limits): recorded effects may no longer hold. */
  configure(options: DocumentOptions): void {
    if (sameOptions(this.options, options)) return;
    this.options = options;
    this.replay.clear();
    this.lineage = {};
    this.last = undefined;
  }

  /** The evaluation of `text`: the last one again when the text is the same (a request evaluated it before the checks ran). */
  update(text: string): FileEvaluation {
    if (this.last && text === this.lastText) {
      this.lastTiming = { parseMs: 0, evaluateMs: 0 };
      return this.last;
    }
    const t0 = performance.now();
    const parsed = this.parser.parse(text);
    const t1 = performance.now();
    const reused = this.last && reuseStopped(this.last, parsed);
    this.last = reused ?? evaluateParsed(parsed, { ...this.options, replay: this.replay });
    this.last.lineage = this.lineage;
    this.lastText = text;
    this.lastTiming = { parseMs: t1 - t0, evaluateMs: performance.now() - t1 };
    return this.last;
  }

  /** A one-line summary of the last update, for logs and profiles. */
  lastStats(): string {
    const s = this.last?.statements;
    return s ? `${s.replayed} statements replayed, ${s.evaluated} evaluated` : 'nothing evaluated yet';
  }
}

function sameOptions(a: DocumentOptions, b: DocumentOptions): boolean {
  return a.dialect === b.dialect && a.maxSteps === b.maxSteps && a.maxRoutes === b.maxRoutes && a.file === b.file && sameConstants(a.constants, b.constants);
}

function sameConstants(a: ReadonlyMap<string, Value> | undefined, b: ReadonlyMap<string, Value> | undefined): boolean {
  if (a === b) return true;
  if (!a || !b || a.size !== b.size) return false;
  for (const [k, v] of a) {
    const w = b.get(k);
    if (w === undefined || !sameValue(v, w)) return false;
  }
  return true;
}
