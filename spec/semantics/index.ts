/**
 * The spec model of OAP 1.0.1 semantics: one pure function per rule, each with its reading, the
 * sentence it rests on and its INTERPRETATIONS.md anchor in its module's doc comment, and a table
 * test in tests/spec/semantics/. Cases, the fuzzer and the reference harness call these; nothing
 * else derives a rule. No I/O, no clock, no environment, no randomness, with one exception:
 * physicalPath/physicalRoot read the disk, since security.md T6 asks where a path really leads.
 */
export {
  atMost,
  type Decision,
  DECISIONS,
  effectiveDecision,
  effectivePermissions,
  exceeds,
  minDecision,
  PERMISSION_CATEGORIES,
  PERMISSION_KEYS,
  type PermissionKey,
  policyDecision,
  profileRequest,
  rank,
  type RequestedPermissions,
  UNSTATED_PROFILE_DEFAULT,
} from './decision.js';
export {
  DEFAULT_MEMORY_MODE,
  effectiveMemoryMode,
  effectiveScopes,
  type MemoryMode,
  memoryAtMost,
  memoryExceeds,
  minMemoryMode,
  scopesBeyond,
  storeModeCap,
} from './memory.js';
export {
  type Budget,
  BUDGET_KEYS,
  BUDGET_SCHEMA_MAXIMUM,
  type BudgetKey,
  budgetAtMost,
  budgetPointer,
  budgetSection,
  minBudget,
  profileBudgets,
} from './budget.js';
export { globMatch, isGlob, matchesAny } from './glob.js';
export { canonicalHost, hostCovered, hostMatches, hostsAllowed, requestedHosts } from './host.js';
export { normalizeRoot, pathAllowed, rootCovers, rootsBeyond, rootsWithin, rootWithin } from './path.js';
export { type Intersection, intersectHosts, intersectRoots } from './intersection.js';
export { DEFAULT_TOOL_POLICY, grantedTools, type ToolPolicy, type ToolsRequest, toolTable } from './tools.js';
export { narrowingRequest, policyCeiling, type Probes, probesFor } from './narrowing.js';
export { type ContractInputs, type ContractPrediction, predictContract } from './contract.js';
export { type ContractFinding, contractFindings, failsContract, type JudgeOptions } from './contract-judge.js';
export { composeProfile, inheritedPart, mergeLayers, mergeValue } from './merge.js';
export {
  launchAllowed,
  mcpServersOf,
  recommendedLaunch,
  serverOffers,
  toolUniverse,
  type Trust,
  unsetReferences,
} from './mcp.js';
export {
  callDecision,
  effectiveRules,
  filledRule,
  mostForCall,
  permissionCategory,
  type PermissionRule,
  type RuleSides,
} from './permission-rules.js';
export { skillStatus, skillsOf } from './skills.js';
export { storeModeBound, storesOf, storeUnavailable } from './stores.js';
export { closerBreakouts, delimitedBlock } from './delimiting.js';
export {
  type OrderedSectionKind,
  orderViolations,
  PROMPT_ORDER,
  promptStep,
} from './prompt-order.js';
export {
  arrayIndexOf,
  decodePointer,
  escapePointerToken,
  idOfToken,
  inStateScope,
  isAncestorOrSelf,
  isPositionIndependent,
  parentPointer,
  parsePointer,
  pointerOf,
  valueAt,
} from './pointer.js';
export { applyStateOperations, type OperationsOutcome, type StateOperation } from './operations.js';
export {
  capEntries,
  DEFAULT_EVICTION,
  DEFAULT_MAX_HISTORY,
  type Eviction,
  evictionOrder,
  expiredKept,
  factEvictionKey,
  factExpired,
  historyByRevision,
  historyOrderBreaks,
  historyRevision,
  pinnedLost,
  type Retention,
  retainFacts,
  retainState,
  retainThreads,
  retentionOf,
  timeOf,
  trimHistory,
  withinCap,
} from './retention.js';
export {
  type HarnessModels,
  type ModelChoice,
  type ModelRequest,
  modelRequestOf,
  PROVIDER_DEPENDENT_PARAMETERS,
  resolveModel,
  ruleReason,
  tierRoute,
} from './model.js';
export {
  type Proposal,
  proposalRisk,
  proposalWidens,
  touchesGuardedSection,
} from './risk.js';
export { DEFAULT_WRITEBACK, operationsOutcome, type Writeback, writebackOf } from './writeback.js';
export { physicalPath, physicalRoot } from './physical-path.js';
export { contractComparison, contractDifferences, contractPathOf, EFFECTIVE_CONTRACT_SHAPE } from './contract-shape.js';
export { trustOfRoot } from './trust.js';
