import type { CaseDef } from '../kit/types.js';
import { adjustmentCases } from './adjustments.js';
import { advisoryCases } from './advisories.js';
import { discoveryCases } from './discovery.js';
import { grammarBoundCases } from './grammar-bounds.js';
import { immutabilityCases } from './immutability.js';
import { modelResolutionCases } from './model-resolution.js';
import { narrowingCases } from './narrowing.js';
import { parsingCases } from './parsing.js';
import { promptOrderCases } from './prompt-order.js';
import { resolveRejectionCases } from './resolve-rejections.js';
import { roundTripCases } from './round-trip.js';
import { sessionRecordCases } from './session-record.js';
import { sideEffectCases } from './side-effects.js';
import { toolPolicyCases } from './tool-policy.js';
import { trustCases } from './trust.js';

/** Level 1 cases, each naming the requirement IDs it proves (conformance.md §2, behavioural tests 1-5). */
export const cases: CaseDef[] = [
  ...parsingCases,
  ...grammarBoundCases,
  ...discoveryCases,
  ...promptOrderCases,
  ...toolPolicyCases,
  ...narrowingCases,
  ...trustCases,
  ...resolveRejectionCases,
  ...sessionRecordCases,
  ...adjustmentCases,
  ...immutabilityCases,
  ...sideEffectCases,
  ...modelResolutionCases,
  ...roundTripCases,
  // Spec MUSTs without a requirement ID: judged and reported, never gating.
  ...advisoryCases,
];
