import type { FileEvaluation } from '../../evaluate/evaluate-file';

/** The application's main route file, for a module's routes file: its routes run first. */
export interface MainRoutes {
  /** Its path: what a module file's findings say of its routes points there. */
  file?: string;
  text: string;
  evaluation: FileEvaluation;
}
