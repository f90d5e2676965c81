/**
 * The helpers every level and the fuzzer share, one name each: choosing the working encoding,
 * writing profiles, instantiating, the permissive policy and the minimal profile, reading files the
 * way the oracle does, prompt sections, and ending a case inconclusive. A helper only one level
 * uses stays in that level's folder.
 */
export { expectContract, probesOf, withTwinAttribution } from './contract.js';
export { inconclusive, requireObservable } from './inconclusive.js';
export { deltaRefusalCause, issuesCause, rejectionCause } from './refusal.js';
export { HOSTILE_TIME_BUDGET_MS, timedValidate, tooLate } from './hostile-time.js';
export { type InputRole, recordApply } from './inputs.js';
export { briefIssues } from './issues.js';
export { oracleRead, type ReadBack, readBack } from './oracle-read.js';
export { permissivePolicy, STANDARD_TOOLS } from './policy.js';
export {
  GENERATED_ENCODINGS,
  minimalProfile,
  nameOf,
  profileFileName,
  removeProfiles,
  workingEncoding,
  writeProfile,
  writeProjectProfile,
} from './profile.js';
export {
  checkSectionMap,
  delimiters,
  type ExpectedSection,
  inside,
  lines,
  type MappedSection,
  mapPrompt,
  occurrences,
  promptWithoutState,
  requireStateSection,
  sectionText,
  sectionTexts,
} from './prompt.js';
export {
  claimedRoots,
  instantiateName,
  instantiatePath,
  instantiateSubject,
  mustInstantiate,
  requireSession,
} from './session.js';
export { samePath } from './paths.js';
