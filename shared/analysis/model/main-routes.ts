import type { FileEvaluation } from '../../evaluate/evaluate-file';

/** The application's main route file, for a module's routes file: its routes run first. */
export interface MainRoutes {
  text: string;
  evaluation: FileEvaluation;
}
