/**
 * Trust labels (SPEC §3.1 `metadata.trust`, §5.2 step 4, §7.1; security.md rule 2; L1-I4): the
 * resolver assigns the label of the discovery root a profile was found in and discards any value in
 * the file. A plugin root's profiles come from elsewhere, so they are `imported` (§7.1 "Fetched or
 * converted from elsewhere"; INTERPRETATIONS.md, L1-D3), as is a file loaded from outside every
 * root. Among files of one name in several roots the winner keeps its own root's label: precedence
 * decides which definition runs, never its authority.
 */

/** The discovery roots of SPEC §5.1, in precedence order. */
type DiscoveryRoot = 'managed' | 'user' | 'project' | 'plugin';
type TrustLabel = 'managed' | 'user' | 'project' | 'imported';

const TRUST_OF_ROOT: Readonly<Record<DiscoveryRoot, TrustLabel>> = {
  managed: 'managed',
  user: 'user',
  project: 'project',
  plugin: 'imported',
};

/** The label a profile discovered in `root` gets (`undefined`: loaded from outside every root). */
export function trustOfRoot(root: DiscoveryRoot | undefined): TrustLabel {
  return root === undefined ? 'imported' : TRUST_OF_ROOT[root];
}
