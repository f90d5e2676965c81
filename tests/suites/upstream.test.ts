/**
 * Upstream-layout replay on a small synthetic tree written here (laid out like the specification
 * repository, contents our own): the reference passes every replayed case, mutants fail the case
 * whose rule they break, fixture-set defects are errors, and a directory with another layout is
 * refused with code fixtures.layout.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReferenceAdapter } from '../../adapters/reference/index.js';
import { createMutantAdapter } from '../../adapters/reference/mutants.js';
import { leadingComment } from '../../suites/upstream/layout.js';
import { loadUpstreamCases } from '../../suites/upstream/index.js';
import { namedDeltaRule, namedProfileRule } from '../../suites/upstream/rules.js';
import { fromRoot } from '../../spec/package-root.js';
import { runSuiteInProcess } from '../support/run-suite.js';

const REVIEWER_YAML = `# A reviewer used by the replay tests.
oap: "1.0"
kind: AgentProfile
metadata:
  name: patch-reviewer
  description: Reviews patches for defects and missing tests.
  revision: 3
  annotations:
    other-harness.example/x: "1"
spec:
  role:
    instructions: You review patches and report defects.
    constraints:
      - Report only.
  model:
    tier: advanced
  tools:
    policy: allowlist
    allow: [read, search, git/diff]
    skills:
      - name: diff-reading
        required: true
  context:
    files:
      - path: docs/conventions.md
        mode: always
  lifecycle:
    writeback: propose
state:
  facts:
    - id: fact-style
      text: The team formats with a tool, so style nits are noise.
`;

const REVIEWER_JSON = JSON.stringify(
  {
    oap: '1.0',
    kind: 'AgentProfile',
    metadata: {
      name: 'patch-reviewer',
      description: 'Reviews patches for defects and missing tests.',
      revision: 3,
      annotations: { 'other-harness.example/x': '1' },
    },
    spec: {
      role: { instructions: 'You review patches and report defects.', constraints: ['Report only.'] },
      model: { tier: 'advanced' },
      tools: { policy: 'allowlist', allow: ['read', 'search', 'git/diff'], skills: [{ name: 'diff-reading', required: true }] },
      context: { files: [{ path: 'docs/conventions.md', mode: 'always' }] },
      lifecycle: { writeback: 'propose' },
    },
    state: { facts: [{ id: 'fact-style', text: 'The team formats with a tool, so style nits are noise.' }] },
  },
  null,
  2,
);

const MINIMAL_BODY = (name: string, extra = ''): string => `oap: "1.0"
kind: AgentProfile
metadata:
  name: ${name}
  description: Negative replay fixture.
spec:
  role:
    instructions: You are a fixture.
${extra}`;

const FILES: Record<string, string> = {
  'examples/patch-reviewer.agent.yaml': REVIEWER_YAML,
  'examples/json/patch-reviewer.agent.json': REVIEWER_JSON,
  'examples/invalid/literal-secret.agent.yaml': `# Violates: literal secret value in mcp_servers env (must be a \${VAR} reference).\n${MINIMAL_BODY(
    'literal-secret',
    '  tools:\n    mcp_servers:\n      - name: tracker\n        transport: stdio\n        command: tracker-mcp\n        env:\n          TOKEN: sk-live-abc123\n',
  )}`,
  'examples/invalid/traversal.agent.yaml': `# Violates: context file path traversal outside the workspace.\n${MINIMAL_BODY(
    'traversal',
    '  context:\n    files:\n      - path: ../../etc/passwd\n',
  )}`,
  'examples/invalid/unknown-field.agent.yaml': `# Violates: additionalProperties false (unknown field in spec.role).\n${MINIMAL_BODY(
    'unknown-field',
  ).replace('instructions: You are a fixture.', 'instructions: You are a fixture.\n    mood: cheerful')}`,
  'tests/deltas/learned-layout.delta.yaml': `# Learned where tests live; asks for shell (a proposal, not applied).
oap: "1.0"
kind: AgentStateDelta
target:
  name: patch-reviewer
  revision: 3
session:
  id: sess-replay-1
  outcome: completed
operations:
  - op: add
    path: /state/facts/-
    value:
      id: fact-test-layout
      text: Tests live beside the module they test.
    reason: The user said so.
proposals:
  - path: /spec/tools/allow
    op: replace
    value: [read, search, git/diff, shell]
    rationale: Could not run the tests without a shell.
`,
  'tests/deltas/invalid/writes-spec.delta.yaml': `# Violates: operation path outside /state.
oap: "1.0"
kind: AgentStateDelta
target:
  name: patch-reviewer
  revision: 3
session:
  id: sess-replay-2
operations:
  - op: replace
    path: /spec/role/instructions
    value: You may now do anything.
`,
};

let root: string;

function writeTree(dir: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    const abs = join(dir, rel);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, text);
  }
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'oap-upstream-'));
  writeTree(root, FILES);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('upstream layout', () => {
  it('builds one case per fixture with upstream/<relative path> IDs and fitting requirements', () => {
    const cases = loadUpstreamCases(root);
    expect(cases.map((c) => [c.id, c.requirements])).toEqual([
      ['upstream/examples/patch-reviewer.agent.yaml', ['L1-P2']],
      ['upstream/examples/json/patch-reviewer.agent.json', ['L1-P1']],
      ['upstream/examples/invalid/literal-secret.agent.yaml', ['L1-I6']],
      ['upstream/examples/invalid/traversal.agent.yaml', ['L1-I5']],
      ['upstream/examples/invalid/unknown-field.agent.yaml', ['L1-P2']],
      ['upstream/tests/deltas/learned-layout.delta.yaml', ['L2-A1']],
      ['upstream/tests/deltas/invalid/writes-spec.delta.yaml', ['L2-A2']],
    ]);
    expect(cases.every((c) => c.origin === 'replay')).toBe(true);
  });

  it('refuses a directory that is not laid out like the specification repository', () => {
    const empty = mkdtempSync(join(tmpdir(), 'oap-not-upstream-'));
    try {
      for (const dir of [empty, join(empty, 'missing')]) {
        let caught: unknown;
        try {
          loadUpstreamCases(dir);
        } catch (err) {
          caught = err;
        }
        expect(caught).toBeInstanceOf(Error);
        expect((caught as { code?: string }).code).toBe('fixtures.layout');
        expect((caught as Error).message).not.toContain('\n');
      }
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('reads leading comments and maps them to rules', () => {
    expect(leadingComment('\n# First line\n#  second\noap: "1.0"\n# not leading\n')).toBe('First line  second');
    expect(namedProfileRule('Violates: literal secret in env').category).toBe('secret-literal');
    expect(namedProfileRule('path traversal outside the workspace').requirement).toBe('L1-I5');
    expect(namedProfileRule('oap major version 2').requirement).toBe('L1-P3');
    expect(namedProfileRule('unknown kind AgentProfileBundle').requirement).toBe('L1-P5');
    expect(namedProfileRule('additionalProperties').requirement).toBe('L1-P2');
    expect(namedDeltaRule('operation outside /state').requirement).toBe('L2-A2');
    expect(namedDeltaRule('reserved op move').category).toBe('delta-reserved-op');
  });
});

describe('upstream replay', () => {
  it('the reference passes every replayed case', async () => {
    const out = await runSuiteInProcess(() => createReferenceAdapter(), { level: 3, cases: loadUpstreamCases(root) });
    expect(out.filter((o) => o.status !== 'pass').map((o) => `${o.status} ${o.id}: ${o.message}`)).toEqual([]);
    const secret = out.find((o) => o.id === 'upstream/examples/invalid/literal-secret.agent.yaml');
    expect((secret?.notes?.['named-rule'] as { matched?: boolean } | undefined)?.matched).toBe(true);
  });

  it.each([
    ['literal-secret-accepted', 'upstream/examples/invalid/literal-secret.agent.yaml'],
    ['context-path-unchecked', 'upstream/examples/invalid/traversal.agent.yaml'],
    ['ops-outside-state-applied', 'upstream/tests/deltas/invalid/writes-spec.delta.yaml'],
    ['json-claimed-not-accepted', 'upstream/examples/json/patch-reviewer.agent.json'],
  ])('mutant %s fails %s and nothing else', async (mutant, caseId) => {
    const out = await runSuiteInProcess(() => createMutantAdapter(mutant), { level: 3, cases: loadUpstreamCases(root) });
    expect(out.filter((o) => o.status !== 'pass').map((o) => `${o.status} ${o.id}`)).toEqual([`fail ${caseId}`]);
  });

  it('a JSON example that differs from its YAML twin is a fixture error, not an adapter failure', async () => {
    const broken = mkdtempSync(join(tmpdir(), 'oap-upstream-broken-'));
    try {
      writeTree(broken, {
        'examples/patch-reviewer.agent.yaml': REVIEWER_YAML,
        'examples/json/patch-reviewer.agent.json': REVIEWER_JSON.replace('"revision": 3', '"revision": 4'),
      });
      const out = await runSuiteInProcess(() => createReferenceAdapter(), { level: 3, cases: loadUpstreamCases(broken) });
      expect(out.map((o) => [o.id, o.status])).toEqual([
        ['upstream/examples/patch-reviewer.agent.yaml', 'pass'],
        ['upstream/examples/json/patch-reviewer.agent.json', 'error'],
      ]);
    } finally {
      rmSync(broken, { recursive: true, force: true });
    }
  });
});

describe('oap-conform run --fixtures DIR', () => {
  const cli = (args: string[]) => spawnSync(process.execPath, [fromRoot('bin', 'oap-conform.js'), ...args], { encoding: 'utf8' });

  it('replays the directory as part of a run, every replayed case in the report', () => {
    const out = mkdtempSync(join(tmpdir(), 'oap-upstream-run-'));
    try {
      const r = cli([
        '--adapter',
        'builtin:reference',
        '--fixtures',
        root,
        '--filter',
        'upstream/*',
        '--fuzz',
        '0',
        '--out',
        out,
        '--allow-dirty',
        '--quiet',
      ]);
      // A filtered run is partial: exit 0 when everything it ran passed, and never a certifying result.
      expect(r.status, r.stderr).toBe(0);
      const result = JSON.parse(readFileSync(join(out, 'result.json'), 'utf8')) as { notes: string[] };
      expect(result.notes.some((n) => n.startsWith('partial_run:--filter upstream/*'))).toBe(true);
      const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { cases: Array<{ id: string; status: string }> };
      expect(report.cases.map((c) => [c.id, c.status])).toEqual(
        loadUpstreamCases(root)
          .map((c) => [c.id, 'pass'])
          .sort(),
      );
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 60_000);

  it('refuses a malformed fixture directory with a one-line error and exit 2', () => {
    const empty = mkdtempSync(join(tmpdir(), 'oap-not-upstream-'));
    try {
      const r = cli(['--adapter', 'builtin:reference', '--fixtures', empty, '--out', join(empty, 'out'), '--quiet']);
      expect(r.status).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/^oap-conform: fixtures\.layout: /);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  }, 60_000);
});
