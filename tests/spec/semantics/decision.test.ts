import { describe, expect, it } from 'vitest';
import {
  atMost,
  type Decision,
  effectiveDecision,
  effectivePermissions,
  exceeds,
  minDecision,
  policyDecision,
  profileRequest,
  rank,
  type RequestedPermissions,
  UNSTATED_PROFILE_DEFAULT,
} from '../../../spec/semantics/index.js';

describe('decision order (SPEC §3.5 "deny < ask < allow", security.md T1)', () => {
  it.each([
    ['deny', 0],
    ['ask', 1],
    ['allow', 2],
  ] as Array<[Decision, number]>)('rank(%s) = %d', (d, r) => expect(rank(d)).toBe(r));

  it.each([
    [['allow', 'ask'], 'ask', 'SPEC §3.5: shell allow under policy ask gets ask'],
    [['allow', 'deny'], 'deny', 'conformance.md behavioural test 1'],
    [['ask', 'allow'], 'ask', 'SPEC §3.5: minimum is symmetric'],
    [['deny', 'allow', 'ask'], 'deny', 'SPEC §3.8: a subagent meets parent and policy'],
    [['allow'], 'allow', 'one side alone'],
  ] as Array<[[Decision, ...Decision[]], Decision, string]>)('minDecision(%j) = %s (%s)', (ds, want) => {
    expect(minDecision(...ds)).toBe(want);
  });

  it.each([
    ['ask', 'allow', true, false],
    ['allow', 'ask', false, true],
    ['deny', 'deny', true, false],
    ['allow', 'allow', true, false],
  ] as Array<[Decision, Decision, boolean, boolean]>)('atMost(%s, %s) = %s, exceeds = %s (SPEC §7.2)', (a, b, le, gt) => {
    expect(atMost(a, b)).toBe(le);
    expect(exceeds(a, b)).toBe(gt);
  });
});

describe('what each side states (SPEC §3.5; INTERPRETATIONS.md, decisions)', () => {
  const policy = { default: 'ask', shell: 'deny' } as const;
  it.each([
    ['shell', 'deny', 'the policy names shell'],
    ['edit', 'ask', 'edit unset: the policy default'],
    ['default', 'ask', 'the default itself'],
  ] as const)('policyDecision(%s) = %s (%s)', (key, want, _why) => expect(policyDecision(policy, key)).toBe(want));

  it.each([
    [{ shell: 'allow' }, 'shell', 'allow', 'explicit value'],
    [{ default: 'ask' }, 'edit', 'ask', 'unset category: the profile default'],
    [{}, 'network', undefined, 'neither: no request, the ceiling stands'],
    [undefined, 'shell', undefined, 'no permissions section'],
    [{ shell: 'deny' }, 'default', undefined, 'the default key reads only `default`'],
  ] as Array<[RequestedPermissions | undefined, 'default' | 'shell' | 'edit' | 'network', Decision | undefined, string]>)(
    'profileRequest(%j, %s) = %s (%s)',
    (req, key, want) => expect(profileRequest(req, key)).toBe(want),
  );

  it('an unstated profile default requests the top of the order (no narrowing)', () => {
    expect(UNSTATED_PROFILE_DEFAULT).toBe('allow');
  });
});

describe('effective decisions (SPEC §3.5 "the effective decision is the minimum of the two")', () => {
  it.each([
    [{ shell: 'allow' }, { default: 'allow', shell: 'deny' }, 'shell', 'deny', 'behavioural test 1'],
    [{ shell: 'allow' }, { default: 'allow', shell: 'ask' }, 'shell', 'ask', 'SPEC §3.5 example'],
    [{ default: 'deny' }, { default: 'allow' }, 'edit', 'deny', 'profile default narrows an unset category'],
    [{}, { default: 'deny' }, 'network', 'deny', 'policy default caps an unset category'],
    [{ default: 'allow' }, { default: 'ask' }, 'default', 'ask', 'effective default = min(profile default, policy default)'],
    [{}, { default: 'ask' }, 'default', 'ask', 'profile default absent: min(allow, policy default)'],
    [{ shell: 'deny' }, { default: 'allow' }, 'shell', 'deny', 'a profile may narrow below the policy'],
  ] as Array<[RequestedPermissions, { default: Decision; shell?: Decision }, 'default' | 'shell' | 'edit' | 'network', Decision, string]>)(
    'profile %j, policy %j: %s = %s (%s)',
    (req, pol, key, want) => expect(effectiveDecision(req, pol, key).value).toBe(want),
  );

  it('reports why a request was narrowed', () => {
    expect(effectiveDecision({ shell: 'allow' }, { default: 'ask' }, 'shell').reasons).toEqual([
      'shell: requested allow, the ceiling allows at most ask',
    ]);
  });

  it('effectivePermissions covers every key', () => {
    expect(effectivePermissions({ shell: 'allow', default: 'ask' }, { default: 'allow', edit: 'deny' })).toEqual({
      default: 'ask',
      shell: 'allow',
      edit: 'deny',
      network: 'ask',
    });
  });
});
