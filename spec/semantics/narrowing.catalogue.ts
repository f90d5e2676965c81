/**
 * Boundary catalogue of the whole effective contract at once (rule: ./contract.ts predictContract,
 * ./contract-judge.ts contractFindings; SPEC §7.2; L1-I3, L3-B1, L3-E2): the classes where every
 * dimension meets the same extreme together, for the prediction of the whole contract (issue 20
 * part 1).
 */
import { type Dimension, dimension } from './catalogue-model.js';

export const NARROWING_CATALOGUE: readonly Dimension[] = [
  dimension({
    id: 'contract.whole',
    title: 'Every dimension of the effective contract together',
    rule: 'spec/semantics/contract.ts predictContract; spec/semantics/contract-judge.ts contractFindings',
    requirements: ['L1-I3', 'L3-B1', 'L3-E2'],
    reads: { profile: ['/spec'], policy: [''], parent: [''], base: ['/spec'] },
    meets: ['profile-policy', 'parent-child', 'base-derived'],
    families: {
      presence: [
        {
          slug: 'role-only-profile',
          description: 'a profile with nothing but `spec.role`',
          values: [{ 'profile:/spec': { role: { instructions: 'x' } } }],
          predicts:
            'every dimension at the policy ceiling, except tools (the default allowlist lists nothing) and memory mode (read_only requested)',
        },
        {
          slug: 'policy-grants-nothing',
          description: 'a policy of deny everywhere, no tools, no roots, no hosts, memory off, every budget 0',
          values: [
            {
              'policy:/permissions': { default: 'deny', rules: [] },
              'policy:/tools': { available: [], grant: [] },
              'policy:/filesystem': { read_roots: [], write_roots: [], allow_absolute: false },
              'policy:/network': { allow_hosts: [] },
            },
          ],
          predicts: 'the empty contract whatever the profile asks',
        },
      ],
      numeric: "the numeric classes are each budget's (budget.catalogue.ts)",
      text: "the text classes are each dimension's",
      separators: "the separator classes are each dimension's",
      wildcards: "the wildcard classes are each dimension's",
      escaping: "the escaping classes are each dimension's",
      duplicates: [
        {
          slug: 'request-equals-policy',
          description: 'a profile asking for exactly what the policy gives',
          values: [{ 'profile:/spec/permissions': { default: 'allow', shell: 'allow', edit: 'allow', network: 'allow' } }],
          predicts: 'the policy ceiling, with no adjustment',
        },
      ],
      order: [
        {
          slug: 'strictly-inside',
          description: 'a profile asking less than the policy on every dimension',
          values: [{ 'profile:/spec/permissions': { default: 'deny' }, 'profile:/spec/memory': { mode: 'off' } }],
          predicts: "the profile's request on every dimension",
          next: ['strictly-outside'],
        },
        {
          slug: 'strictly-outside',
          description: 'a profile asking more than the policy on every dimension',
          values: [{ 'profile:/spec/permissions': { default: 'allow' }, 'policy:/permissions': { default: 'deny', rules: [] } }],
          predicts: 'the policy ceiling on every dimension, each narrowing recorded (L1-I9)',
        },
      ],
      links: [
        {
          slug: 'child-of-narrowed-parent',
          description: 'a child whose request equals the policy under a parent that narrowed everything',
          values: [{ 'parent:/permissions/default': 'deny', 'profile:/spec/permissions/default': 'allow' }],
          predicts: "the parent's effective contract, never the policy (L3-B1)",
        },
        {
          slug: 'merged-then-narrowed',
          description: 'a derived layer widening every dimension a base narrowed',
          values: [
            {
              'base:/spec': { role: { instructions: 'x' }, permissions: { default: 'deny' } },
              'profile:/spec/permissions/default': 'allow',
            },
          ],
          predicts: 'the merged request narrowed once by the policy (never more than the flat merged profile, L3-E2)',
        },
      ],
    },
  }),
];
