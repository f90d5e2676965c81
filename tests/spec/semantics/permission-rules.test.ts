import { describe, expect, it } from 'vitest';
import {
  callDecision,
  effectiveRules,
  filledRule,
  mostForCall,
  permissionCategory,
  type PermissionRule,
  type RuleSides,
} from '../../../spec/semantics/index.js';

const rule = (tool: string, decision: PermissionRule['decision'], action = '*', target = '*'): PermissionRule => ({
  tool,
  action,
  target,
  decision,
});
const call = (tool: string, action = 'run', target = 'x') => ({ tool, action, target });
const UNIVERSE = ['read', 'edit', 'write', 'shell', 'web/fetch', 'git/diff'];

describe('permission rules (SPEC §3.5 "first match wins, and are themselves subject to the narrowing rule"; INTERPRETATIONS.md, permission rules)', () => {
  it.each([
    ['shell', 'shell'],
    ['edit', 'edit'],
    ['write', 'edit'],
    ['web/fetch', 'network'],
    ['fetch', 'network'],
    ['read', 'default'],
    ['git/diff', 'default'],
  ])('the category of %s is %s', (tool, category) => expect(permissionCategory(tool)).toBe(category));

  it('a rule leaving out tool, action or target matches every one (catalogue permissions.rules/defaults-star)', () => {
    expect(filledRule({ decision: 'allow' })).toEqual(rule('*', 'allow'));
  });

  it.each([
    [[rule('shell', 'deny'), rule('shell', 'allow')], call('shell'), 'deny', 'first match wins'],
    [[rule('shell', 'allow', 'ls')], call('shell', 'rm'), 'ask', 'no rule matches: the category decides'],
    [[rule('git/*', 'deny')], call('git/diff'), 'deny', 'globs select tools'],
    [[], call('web/fetch'), 'allow', 'the network category'],
  ] as Array<[PermissionRule[], ReturnType<typeof call>, string, string]>)('callDecision %j %j → %s (%s)', (rules, c, want) => {
    expect(callDecision(rules, { default: 'allow', shell: 'ask', edit: 'allow', network: 'allow' }, c)).toBe(want);
  });

  const sides = (patch: Partial<RuleSides>): RuleSides => ({
    ceilingRules: [],
    ceilingPermissions: { default: 'allow', shell: 'allow', edit: 'allow', network: 'allow' },
    profileRules: [],
    profileRequest: {},
    ...patch,
  });

  it.each([
    [
      'permissions.rules/profile-allow-shell-rule: a profile rule cannot lift shell above the policy',
      sides({ ceilingPermissions: { default: 'allow', shell: 'deny' }, profileRules: [rule('shell', 'allow')] }),
      [rule('shell', 'deny')],
    ],
    [
      'permissions.rules/policy-rules-first: the policy rule first, the profile rule capped by it',
      sides({ ceilingRules: [rule('shell', 'ask')], profileRules: [rule('shell', 'allow')] }),
      [rule('shell', 'ask'), rule('shell', 'ask')],
    ],
    [
      'a profile deny rule narrows a policy allow rule it may overlap',
      sides({ ceilingRules: [rule('shell', 'allow')], profileRules: [rule('shell', 'deny', 'rm')] }),
      [rule('shell', 'deny'), rule('shell', 'deny', 'rm')],
    ],
    [
      'a policy rule is capped by the profile category request of the tools it covers',
      sides({ ceilingRules: [rule('edit', 'allow')], profileRequest: { edit: 'ask' } }),
      [rule('edit', 'ask')],
    ],
  ] as Array<[string, RuleSides, PermissionRule[]]>)('effectiveRules: %s', (_what, s, want) => {
    const got = effectiveRules(s, UNIVERSE);
    expect(got).toEqual(want);
    // Whatever the list, no call is decided above the bound.
    for (const t of UNIVERSE)
      for (const a of ['rm', 'ls']) {
        const c = call(t, a);
        const bound = mostForCall(s, c);
        const decided = callDecision(got, { default: 'deny', shell: 'deny', edit: 'deny', network: 'deny' }, c);
        expect(['deny', 'ask', 'allow'].indexOf(decided)).toBeLessThanOrEqual(['deny', 'ask', 'allow'].indexOf(bound));
      }
  });
});
