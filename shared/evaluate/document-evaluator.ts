import { StatementParser, type ParsedFile } from '../php/parse';
import { evaluateParsed, reuseStopped, type EvaluateOptions, type FileEvaluation } from './evaluate-file';
import { ReplayCache } from './replay';
import { DocumentState } from './document-state';
import { handOut } from './frozen-evaluations';
import { canResume, firstDifference, type Checkpoint } from './checkpoint';
import { sameValue } from '../runtime/convert';
import type { Value } from '../runtime/values';

export type DocumentOptions = Omit<EvaluateOptions, 'parser' | 'perMethod' | 'replay' | 'document' | 'resume' | 'checkpointAt' | 'onCheckpoint'>;

/** Where checkpoints are taken (tests take them everywhere, to hold every path to a fresh evaluation). */
export interface CheckpointPolicy {
  /** Above this many statements, replaying is cheaper than copying the state into a checkpoint. */
  minAt: number;
  /** Statements a checkpoint may lie above the edit before one is taken at the edit instead. */
  maxLag: number;
}

export const DEFAULT_CHECKPOINTS: CheckpointPolicy = { minAt: 32, maxLag: 64 };

/**
 * Evaluates successive versions of one document, doing again only what an edit can change:
 * statements are re-parsed only when their text changed; the evaluation resumes from the state
 * kept before the edited statement (a checkpoint) instead of running the statements above it;
 * declarations below whose text did not change are replayed from the previous evaluation instead
 * of being evaluated; when the script stopped before the edit (an endless loop, a fatal error),
 * the previous evaluation stands. The result equals
 * `evaluateRouteFile(text, options)` for every text (the property tests hold it to that).
 */
export class DocumentEvaluator {
  private readonly parser = new StatementParser();
  private readonly replay = new ReplayCache();
  private last: FileEvaluation | undefined;
  /** The state before the statement last edited; dropped when an edit above it makes it another file's. */
  private checkpoint: Checkpoint | undefined;
  /** The parse the checkpoint was taken in or last resumed from (its statements above the checkpoint are the checkpoint's). */
  private checkpointParse: ParsedFile | undefined;
  /** The text `last` is the evaluation of. */
  private lastText: string | undefined;
  /** Shared by this document's evaluations; a new one when options change (nothing carries over). */
  private lineage = new DocumentState();
  /** Where the last update's time went (milliseconds). */
  lastTiming = { parseMs: 0, evaluateMs: 0 };

  constructor(
    private options: DocumentOptions = {},
    private readonly checkpoints: CheckpointPolicy = DEFAULT_CHECKPOINTS,
  ) {}

  /** New options (dialect, constants, limits): recorded effects may no longer hold. */
  configure(options: DocumentOptions): void {
    if (sameOptions(this.options, options)) return;
    this.options = options;
    this.replay.clear();
    this.checkpoint = undefined;
    this.checkpointParse = undefined;
    this.lineage = new DocumentState();
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
    const evaluation = reused ?? this.evaluate(parsed);
    this.last = handOut(evaluation);
    this.lastText = text;
    this.lastTiming = { parseMs: t1 - t0, evaluateMs: performance.now() - t1 };
    return this.last;
  }

  /** Evaluates a new version, resuming from the checkpoint when it applies and keeping one before the edited statement. */
  private evaluate(parsed: ParsedFile): FileEvaluation {
    const edited = this.last ? firstDifference(this.last.parsed.statements, parsed.statements) : undefined;
    // The statements above the edit are the last version's: when the checkpoint held for it and
    // lies above the edit, only the functions and the file's syntax errors remain to compare.
    const knownSame = this.checkpoint && edited !== undefined && this.checkpointParse === this.last?.parsed ? edited : 0;
    const checkpoint = this.checkpoint && canResume(this.checkpoint, parsed, knownSame) ? this.checkpoint : undefined;
    this.checkpoint = checkpoint;
    this.checkpointParse = checkpoint ? parsed : undefined;
    // A checkpoint far above the edit would cost the statements between them on every keystroke.
    const { minAt, maxLag } = this.checkpoints;
    const checkpointAt = edited !== undefined && edited >= minAt && (!checkpoint || edited - checkpoint.at > maxLag) ? edited : undefined;
    return evaluateParsed(parsed, {
      ...this.options,
      document: this.lineage,
      parser: this.parser,
      replay: this.replay,
      resume: checkpoint,
      checkpointAt,
      onCheckpoint: (taken) => {
        this.checkpoint = taken;
        this.checkpointParse = parsed;
      },
    });
  }

  /**
   * Files on disk changed: when the last evaluation read other files (include, glob()), the next
   * update evaluates again even for the same text. Checkpoints and replay hold nothing past an
   * include, so only the evaluation kept for the same text goes. Returns whether it went.
   */
  otherFilesChanged(): boolean {
    if (!this.last?.readsFiles) return false;
    this.last = undefined;
    this.lastText = undefined;
    return true;
  }

  /** The last evaluation made (a value: the next update shares its records without changing them). */
  get current(): FileEvaluation | undefined {
    return this.last;
  }

  /** A one-line summary of the last update, for logs and profiles. */
  lastStats(): string {
    const s = this.last?.statements;
    if (!s) return 'nothing evaluated yet';
    return `${s.resumed ? `${s.resumed} statements resumed past, ` : ''}${s.replayed} replayed, ${s.evaluated} evaluated`;
  }
}

function sameOptions(a: DocumentOptions, b: DocumentOptions): boolean {
  return a.dialect === b.dialect && Boolean(a.recover) === Boolean(b.recover) && Boolean(a.constantsComplete) === Boolean(b.constantsComplete) && a.phpVersion?.major === b.phpVersion?.major && a.phpVersion?.minor === b.phpVersion?.minor && a.maxSteps === b.maxSteps && a.maxMilliseconds === b.maxMilliseconds && a.maxRoutes === b.maxRoutes && a.file === b.file && a.environmentRoutes?.path === b.environmentRoutes?.path && sameConstants(a.constants, b.constants);
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
