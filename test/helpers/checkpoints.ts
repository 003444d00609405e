import type { CheckpointPolicy } from '../../shared/evaluate/document-evaluator';

/** A checkpoint before every edited statement, however small the file: tests then exercise every resume. */
export const CHECKPOINTS_EVERYWHERE: CheckpointPolicy = { minAt: 1, maxLag: 0 };
