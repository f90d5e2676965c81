import type { CaseDef } from '../../suites/kit/types.js';

/** What a program embedding the CLI (a test, say) may give `main` besides argv. */
export interface CliEmbedding {
  /** Run exactly these cases instead of the suite's. */
  cases?: CaseDef[];
}
