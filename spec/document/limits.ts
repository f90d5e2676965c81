/**
 * Bounds applied to untrusted input before and during parsing. Profiles are shared like scripts
 * (security.md §1: "an attacker can author a profile that a user will load"), so every parser
 * entry point enforces these before building anything proportional to the attacker's input.
 */
export interface ParseLimits {
  /** Largest accepted document, in UTF-8 bytes. Checked before any parsing. Code `limit.size`. */
  maxBytes: number;
  /** Deepest accepted nesting of objects/arrays (the root object is depth 1). Code `limit.depth`. */
  maxDepth: number;
  /** Most YAML alias dereferences, counted across nested expansions. Code `limit.aliases`. */
  maxAliases: number;
  /**
   * Most nodes materialised through alias expansion. A single alias of a very large anchored node
   * stays under `maxAliases` but can still multiply the document, so expansion volume is capped
   * separately. Code `limit.aliases`.
   */
  maxAliasNodes: number;
}

export const DEFAULT_LIMITS: Readonly<ParseLimits> = Object.freeze({
  maxBytes: 5 * 1024 * 1024,
  maxDepth: 64,
  maxAliases: 100,
  maxAliasNodes: 100_000,
});

export function resolveLimits(limits: Partial<ParseLimits> | undefined): ParseLimits {
  return { ...DEFAULT_LIMITS, ...limits };
}
