import type { CaseDef } from '../kit/types.js';
import { delegationCases } from './delegation.js';
import { digestCases } from './digests.js';
import { encodingCases } from './encodings.js';
import { extendsCases } from './extends.js';
import { mcpCases } from './mcp.js';
import { memoryCases } from './memory.js';
import { narrowingCases } from './narrowing.js';
import { rootCases } from './roots.js';
import { skillCases } from './skills.js';

/** Level 3 cases, each naming the requirement IDs it proves (conformance.md section 4, tests 11-13). */
export const cases: CaseDef[] = [
  ...extendsCases,
  ...narrowingCases,
  ...mcpCases,
  ...skillCases,
  ...memoryCases,
  ...delegationCases,
  ...encodingCases,
  ...digestCases,
  ...rootCases,
];
