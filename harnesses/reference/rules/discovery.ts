/** The reference's rules for discovery (SPEC §5.1) and resolution (SPEC §5.2, §4). */
import { specDigest } from '../../../spec/document/index.js';
import { inheritedPart, mergeValue, skillStatus, trustOfRoot } from '../../../spec/semantics/index.js';
import { adapterIssue } from '../issues.js';
import { rootDirs } from '../roots.js';
import type { Rules } from '../rules.js';

type DiscoveryRules = Pick<
  Rules,
  | 'discoveryRoots'
  | 'withinRootCollision'
  | 'crossRootCollision'
  | 'winnerTrust'
  | 'profileName'
  | 'discoveryFootprint'
  | 'assignTrust'
  | 'resolutionFootprint'
  | 'extendsDepthAllowed'
  | 'missingExtendsBase'
  | 'refusesRepeatedBase'
  | 'extendsCycle'
  | 'extendsChain'
  | 'extendsPinMismatch'
  | 'mergeValue'
  | 'inheritedPart'
  | 'substitutionTargets'
  | 'definedVariable'
  | 'undefinedVariable'
  | 'keepsMcpServer'
  | 'installedSkill'
  | 'skillPinMatches'
  | 'acquireSkill'
  | 'refusesMissing'
  | 'storeFootprint'
  | 'storeKindImplemented'
>;

/** The deepest extends chain merged: eight levels of bases below the profile. */
export const MAX_EXTENDS_DEPTH = 8;

export const discoveryRules: DiscoveryRules = {
  discoveryRoots: (roots) => rootDirs(roots),
  withinRootCollision: (_name, found) => (found.length === 1 ? found[0] : undefined),
  crossRootCollision: (name, paths, winner) => ({ name, scope: 'across-roots', paths, winner }),
  winnerTrust: (winner) => trustOfRoot(winner),
  profileName: (metadataName) => metadataName,
  discoveryFootprint: () => undefined,

  assignTrust: (rootTrust) => rootTrust,
  resolutionFootprint: () => undefined,
  extendsDepthAllowed: (depth) => depth <= MAX_EXTENDS_DEPTH,
  missingExtendsBase: (name, pointer, profilePath) =>
    adapterIssue('extends-missing', pointer, `base profile "${name}" not found in any discovery root`, profilePath),
  refusesRepeatedBase: () => false,
  extendsCycle: (chain, base) => chain.includes(base),
  extendsChain: (chain, base) => [...chain, base],

  extendsPinMismatch(pin, base) {
    // A pin names the base's spec digest (SPEC §2.2 "what pinning SHOULD use").
    const actual = specDigest(base);
    return actual === pin ? undefined : actual;
  },

  // SPEC §4's merge step (spec/semantics/merge.ts), recursing through the table so an override is seen at every depth.
  mergeValue: (base, child, depth, rules) => mergeValue(base, child, (b, c) => rules.mergeValue(b, c, depth + 1, rules)),
  inheritedPart: (base) => inheritedPart(base),

  substitutionTargets: () => ['instructions', 'objectives', 'constraints'],
  definedVariable: (vars, key) => (Object.hasOwn(vars, key) ? vars[key] : undefined),
  undefinedVariable: () => undefined,
  keepsMcpServer: (missing) => missing.length === 0,
  installedSkill: (name, policy) => policy.skills.find((k) => k.name === name),
  skillPinMatches: (pin, installed) => skillStatus({ name: installed.name, digest: pin }, [installed]) === 'present',
  acquireSkill: () => false,
  refusesMissing: (_what, required) => required,
  storeFootprint: () => undefined,
  storeKindImplemented: (kind, policy) => policy.memory.store_kinds.includes(kind),
};
