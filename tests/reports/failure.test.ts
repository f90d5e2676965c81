import { describe, expect, it } from 'vitest';
import { cutAtBoundary, differenceLine, inputText } from '../../reports/failure.js';
import { groupFailures } from '../../results/groups.js';
import type { CaseRecord } from '../../results/model.js';
import { invocationOf, rerunCommand, shellQuote } from '../../results/rerun.js';
import { type Difference, differencesOf, type Shape, shapeAt } from '../../spec/document/differences.js';
import { type ContractFinding, contractComparison, contractDifferences, EFFECTIVE_CONTRACT_SHAPE } from '../../spec/semantics/index.js';
import { makeCase, makeReport } from '../results/make-report.js';

describe('differences, computed once when a failure is recorded', () => {
  it.each([
    [
      'a changed leaf',
      { budgets: { max_tool_calls: 10, max_turns: 5 } },
      { budgets: { max_tool_calls: 100, max_turns: 5 } },
      [{ pointer: '/budgets/max_tool_calls', expected: 10, observed: 100 }],
    ],
    ['an extra member', { a: 1 }, { a: 1, b: 2 }, [{ pointer: '/b', observed: 2 }]],
    ['a missing member', { a: 1, b: 2 }, { a: 1 }, [{ pointer: '/b', expected: 2 }]],
    ['an array element', { tools: ['read', 'shell'] }, { tools: ['read'] }, [{ pointer: '/tools/1', expected: 'shell' }]],
    ['RFC 6901 escapes', { 'a/b': { '~c': 1 } }, { 'a/b': { '~c': 2 } }, [{ pointer: '/a~1b/~0c', expected: 1, observed: 2 }]],
    ['scalars', 'deny', 'allow', [{ pointer: '', expected: 'deny', observed: 'allow' }]],
    ['object against scalar', { a: 1 }, 'x', [{ pointer: '', expected: { a: 1 }, observed: 'x' }]],
    ['equal values', { a: [1] }, { a: [1] }, []],
    ['nothing to compare', undefined, undefined, []],
  ])('%s', (_what, expected, observed, want) => {
    expect(differencesOf(expected, observed)).toEqual(want);
  });
});

describe('differences in the data’s own terms', () => {
  const SET: Shape = { kind: 'set' };
  it.each<[string, unknown, unknown, Shape, Difference[]]>([
    [
      'a set by value: two extra members, no position-by-position list',
      ['edit', 'git/diff', 'read'],
      ['edit', 'git/commit', 'git/diff', 'read', 'write'],
      SET,
      [{ pointer: '', extra: ['git/commit', 'write'] }],
    ],
    ['a set: extra and missing at once', ['a', 'b'], ['b', 'c'], SET, [{ pointer: '', extra: ['c'], missing: ['a'] }]],
    ['a set: order means nothing', ['a', 'b'], ['b', 'a'], SET, []],
    ['a set: objects compared by value', [{ a: 1 }], [{ a: 1 }, { a: 2 }], SET, [{ pointer: '', extra: [{ a: 2 }] }]],
    [
      'a set: the same members, one repeated, is the values',
      ['a'],
      ['a', 'a'],
      SET,
      [{ pointer: '', expected: ['a'], observed: ['a', 'a'] }],
    ],
    [
      'a keyed list by its key, whatever the order',
      [
        { name: 'notes', mode: 'read_only' },
        { name: 'kb', mode: 'off' },
      ],
      [
        { name: 'kb', mode: 'off' },
        { name: 'notes', mode: 'read_write' },
        { name: 'cache', mode: 'off' },
      ],
      { kind: 'keyed', key: 'name' },
      [
        { pointer: '/notes/mode', expected: 'read_only', observed: 'read_write' },
        { pointer: '/cache', observed: { name: 'cache', mode: 'off' } },
      ],
    ],
    [
      'a keyed list without its keys falls back to positions',
      [{ mode: 'a' }],
      [{ mode: 'b' }],
      { kind: 'keyed', key: 'name' },
      [{ pointer: '/0/mode', expected: 'a', observed: 'b' }],
    ],
    [
      'an ordered list by position',
      ['deny', 'allow'],
      ['allow', 'deny'],
      { kind: 'list' },
      [
        { pointer: '/0', expected: 'deny', observed: 'allow' },
        { pointer: '/1', expected: 'allow', observed: 'deny' },
      ],
    ],
    [
      'text by line: a changed line, then an added one',
      'one\ntwo\nthree',
      'one\nTWO\nthree\nfour',
      { kind: 'text' },
      [
        { pointer: '', line: 2, expected: 'two', observed: 'TWO' },
        { pointer: '', line: 4, observed: 'four' },
      ],
    ],
    ['text by line: a removed line, where it would be', 'a\nb\nc', 'a\nc', { kind: 'text' }, [{ pointer: '', line: 2, expected: 'b' }]],
    [
      'a map by key with a set field',
      { tools: ['a'], n: 1 },
      { tools: ['a', 'b'], n: 1 },
      { kind: 'map', fields: { tools: SET } },
      [{ pointer: '/tools', extra: ['b'] }],
    ],
  ])('%s', (_what, expected, observed, shape, want) => {
    expect(differencesOf(expected, observed, { shape })).toEqual(want);
  });

  it('a list absent against an empty one is dropped beside a real difference, and kept when it is the only one', () => {
    expect(differencesOf({ a: 1, errors: [] }, { a: 2 })).toEqual([{ pointer: '/a', expected: 1, observed: 2 }]);
    expect(differencesOf({ errors: [] }, {})).toEqual([{ pointer: '/errors', expected: [] }]);
    expect(differencesOf({ a: 1 }, { a: 2, b: {} })).toEqual([
      { pointer: '/a', expected: 1, observed: 2 },
      { pointer: '/b', observed: {} },
    ]);
  });

  it('multi-line text is compared by line without a shape; one-line text whole', () => {
    expect(differencesOf({ t: 'a\nb' }, { t: 'a\nc' })).toEqual([{ pointer: '/t', line: 2, expected: 'b', observed: 'c' }]);
    expect(differencesOf({ t: 'ab' }, { t: 'ac' })).toEqual([{ pointer: '/t', expected: 'ab', observed: 'ac' }]);
  });

  it("the judge's member-by-member findings become one set difference at the set, the rest as found", () => {
    const findings: ContractFinding[] = [
      {
        pointer: '/tools/git~1commit',
        deviation: 'wider',
        expected: { within: ['read'] },
        observed: 'git/commit',
        requirements: ['L1-I3'],
      },
      { pointer: '/permissions/shell', deviation: 'wider', expected: { atMost: 'deny' }, observed: 'allow', requirements: ['L1-I3'] },
      { pointer: '/tools/write', deviation: 'wider', expected: { within: ['read'] }, observed: 'write', requirements: ['L1-I3'] },
      { pointer: '/tools/read', deviation: 'differs', expected: { present: true }, observed: { present: false }, requirements: ['L1-I2'] },
      {
        pointer: '/mcp_servers/git/tools',
        deviation: 'wider',
        expected: { within: [] },
        observed: 'mcp/git/push',
        requirements: ['L3-M1'],
      },
    ];
    // Only the difference's own fields: a record's differences carry no deviation or requirements.
    expect(contractDifferences(findings)).toEqual([
      { pointer: '/tools', extra: ['git/commit', 'write'], missing: ['read'] },
      { pointer: '/permissions/shell', expected: { atMost: 'deny' }, observed: 'allow' },
      { pointer: '/mcp_servers/git/tools', extra: ['mcp/git/push'] },
    ]);
  });

  it('the effective contract says which dimensions are sets, keyed maps and ordered lists', () => {
    for (const set of [
      '/tools',
      '/filesystem/read_roots',
      '/filesystem/write_roots',
      '/filesystem/deny_paths',
      '/hosts',
      '/memory/scopes',
      '/subagents/allow',
    ])
      expect(shapeAt(EFFECTIVE_CONTRACT_SHAPE, set), set).toEqual({ kind: 'set' });
    expect(shapeAt(EFFECTIVE_CONTRACT_SHAPE, '/memory/stores')).toMatchObject({ kind: 'keyed', key: 'name' });
    expect(shapeAt(EFFECTIVE_CONTRACT_SHAPE, '/mcp_servers')).toMatchObject({ kind: 'keyed', key: 'name' });
    expect(shapeAt(EFFECTIVE_CONTRACT_SHAPE, '/rules')).toMatchObject({ kind: 'list' });
    expect(shapeAt(EFFECTIVE_CONTRACT_SHAPE, '/mcp_servers/git/tools')).toEqual({ kind: 'set' });
    // One dimension compared where it sits names its contract path.
    expect(differencesOf(['read'], ['read', 'shell'], contractComparison('/tools'))).toEqual([{ pointer: '/tools', extra: ['shell'] }]);
    expect(differencesOf(['a.com'], [], contractComparison('/hosts'))).toEqual([{ pointer: '/hosts', missing: ['a.com'] }]);
  });
});

describe('rendering', () => {
  it.each([
    ['short text stays whole', 'deny the shell', 40, 'deny the shell'],
    [
      'cut after the last space that fits, never mid-word',
      'effective budgets differ from the narrowing rule',
      30,
      'effective budgets differ from…',
    ],
    ['cut after a JSON separator', '{"a":"alpha","b":"beta","c":"gamma"}', 20, '{"a":"alpha","b":…'],
    ['one long word is cut where it must be', 'x'.repeat(30), 10, `${'x'.repeat(9)}…`],
  ])('%s', (_what, text, max, want) => {
    const cut = cutAtBoundary(text, max);
    expect(cut).toBe(want);
    expect(cut.length).toBeLessThanOrEqual(max);
  });

  it('a difference reads `pointer: expected vs observed`, absent values named', () => {
    expect(differenceLine({ pointer: '/budgets/max_tool_calls', expected: 10, observed: 100 })).toBe('/budgets/max_tool_calls: 10 vs 100');
    expect(differenceLine({ pointer: '/b', observed: 2 })).toBe('/b: (absent) vs 2');
    expect(differenceLine({ pointer: '', expected: 'deny', observed: 'allow' })).toBe('(root): "deny" vs "allow"');
    expect(differenceLine({ pointer: '/tools', extra: ['git/commit', 'write'], missing: ['read'] })).toBe(
      '/tools: extra "git/commit", "write"; missing "read"',
    );
    expect(differenceLine({ pointer: '/prompt/text', line: 3, expected: 'a', observed: 'b' })).toBe('/prompt/text line 3: "a" vs "b"');
  });

  it('inputs: a file as written, anything else as YAML with lists of scalars on one line', () => {
    expect(inputText('oap: "1.0"\n')).toBe('oap: "1.0"\n');
    expect(inputText({ tools: { available: ['read', 'shell'] } })).toBe('tools:\n  available: [ read, shell ]\n');
  });
});

describe('rerun lines', () => {
  const header = makeReport({ level: 2, seed: 7 }).header;
  it('run --case with the adapter, level and seed; the adapter spec quoted for a POSIX shell', () => {
    const c = makeCase('L1-I3/x', ['L1-I3'], 'fail');
    expect(rerunCommand(header, c)).toBe(
      'oap-conform run --adapter builtin:test --level 2 --case L1-I3/x --seed 7 --out oap-conform-rerun',
    );
    const spaced = { ...header, adapter: { ...header.adapter, spec: "python3 it's.py" }, options: { ...header.options, timeout_ms: 500 } };
    expect(rerunCommand(spaced, c)).toBe(
      `oap-conform run --adapter 'python3 it'\\''s.py' --level 2 --case L1-I3/x --seed 7 --timeout 500 --out oap-conform-rerun`,
    );
    expect(shellQuote('a b')).toBe("'a b'");
    const env = { ...header, options: { ...header.options, adapter_env: ['PYTHONPATH', 'HARNESS_OPTS=-v fast'] } };
    expect(rerunCommand(env, c)).toBe(
      "oap-conform run --adapter builtin:test --adapter-env PYTHONPATH --adapter-env 'HARNESS_OPTS=-v fast' --level 2 --case L1-I3/x --seed 7 --out oap-conform-rerun",
    );
    const checked = { ...header, options: { ...header.options, check_protocol: true, process: true } };
    expect(rerunCommand(checked, c)).toBe(
      'oap-conform run --adapter builtin:test --level 2 --case L1-I3/x --seed 7 --check-protocol --process --out oap-conform-rerun',
    );
  });

  it('the command as the run was invoked: npx oap-conform under npm exec', () => {
    const c = makeCase('L1-I3/x', ['L1-I3'], 'fail');
    expect(invocationOf({ npm_command: 'exec' })).toBe('npx oap-conform');
    expect(invocationOf({})).toBe('oap-conform');
    expect(rerunCommand({ ...header, invoked_as: 'npx oap-conform' }, c)).toMatch(/^npx oap-conform run --adapter builtin:test /);
    const finding = { ...c, finding: '/out/findings/f.json', origin: 'fuzz' } as CaseRecord;
    expect(rerunCommand({ ...header, invoked_as: 'npx oap-conform' }, finding)).toMatch(/^npx oap-conform replay /);
  });

  it('a fuzz case that wrote a finding is replayed; one that did not is rerun with the same fuzz budget', () => {
    const withFinding = {
      ...makeCase('fuzz/L1-I3/narrowing#0', ['L1-I3'], 'fail', { finding: '/out/findings/f.json' }),
      origin: 'fuzz',
    } as CaseRecord;
    expect(rerunCommand(header, withFinding)).toBe('oap-conform replay /out/findings/f.json --adapter builtin:test');
    const without = { ...makeCase('fuzz/L1-I3/narrowing#1', ['L1-I3'], 'error'), origin: 'fuzz' } as CaseRecord;
    expect(rerunCommand({ ...header, options: { ...header.options, fuzz: 600 } }, without)).toBe(
      "oap-conform run --adapter builtin:test --level 2 --case 'fuzz/L1-I3/narrowing#1' --seed 7 --fuzz 600 --out oap-conform-rerun",
    );
  });
});

describe('failure groups', () => {
  it('by requirement and contract dimension: a set member is its set, and a meta key of the evidence groups nothing', () => {
    const fail = (id: string, message: string, differences: object[]) =>
      ({ ...makeCase(id, ['L1-I3'], 'fail', { message }), differences }) as CaseRecord;
    const groups = groupFailures([
      fail('fuzz/L1-I3/narrowing#0', 'looser than the policy at /permissions/shell', [{ pointer: '/within', expected: 'policy' }]),
      fail('fuzz/L1-I3/narrowing#1', 'subagents ["x"] may be delegated to although the profile does not allow them', [
        { pointer: '/within', expected: [] },
      ]),
      fail('L1-I3/a', 'tools beyond the grant', [{ pointer: '/tools/git~1commit', observed: 'git/commit' }]),
      fail('L1-I3/b', 'tools beyond the grant', [{ pointer: '/tools', extra: ['write'] }]),
      fail('L1-I3/c', 'shell', [{ pointer: '/~1permissions~1shell', expected: 'deny', observed: 'allow' }]),
    ]);
    expect(groups.map((g) => [g.pointer ?? null, g.cases.map((c) => c.id)])).toEqual([
      ['/tools', ['L1-I3/a', 'L1-I3/b']],
      [null, ['fuzz/L1-I3/narrowing#0']],
      [null, ['fuzz/L1-I3/narrowing#1']],
      ['/permissions/shell', ['L1-I3/c']],
    ]);
  });

  it('one group per requirement, status and first differing pointer, check failures first, with every case that hit it', () => {
    const fail = (id: string, pointer: string) =>
      ({ ...makeCase(id, ['L1-I3'], 'fail'), differences: [{ pointer, expected: 1, observed: 2 }] }) as CaseRecord;
    const groups = groupFailures([
      makeCase('L1-P1/a', ['L1-P1'], 'skipped', { message: 'adapter: not implemented: validate: no' }),
      fail('L1-I3/a', '/budgets/max_turns'),
      fail('L1-I3/b', '/budgets/max_turns'),
      fail('L1-I3/c', '/permissions/shell'),
      makeCase('L1-P2/a', ['L1-P2'], 'skipped', { message: 'adapter: not implemented: validate: no' }),
      makeCase('L1-P2/b', ['L1-P2'], 'pass'),
    ]);
    expect(groups.map((g) => [g.class, g.status, g.pointer ?? null, g.cases.map((c) => c.id)])).toEqual([
      ['check', 'fail', '/budgets/max_turns', ['L1-I3/a', 'L1-I3/b']],
      ['check', 'fail', '/permissions/shell', ['L1-I3/c']],
      ['not-judged', 'skipped', null, ['L1-P1/a']],
      ['not-judged', 'skipped', null, ['L1-P2/a']],
    ]);
  });
});
