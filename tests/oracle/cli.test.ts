import { fixtures } from '../../fixtures/index.js';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fromRoot, packageRoot } from '../../spec/package-root.js';
import { runCli } from '../support/cli.js';

/**
 * `oap-conform validate` end to end: main(argv), the function the launcher calls, in this process
 * (tests/support/cli.ts), in the package root, so the documents are named relative to it as a user
 * types them and printed as given. The launcher itself is proved in tests/cli/robustness.test.ts.
 */
interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

const cli = (...args: string[]): Promise<Run> => runCli(args, { cwd: packageRoot });

const DOCS = 'fixtures/documents';
const APPENDIX_B = [
  ['appendix-b-1.json', '43258cff783fe7036d8a43033f830adfc60ec037382473548ac742b888292777'],
  ['appendix-b-2.json', '2bfd14f43d17fc7cea24e0917a8879b4b2f880b8baeec1b9d90fbaad655e71bd'],
  ['appendix-b-3.json', '10010dc4ceacb6da17cd992ce8dffbdc8ba51cc681def9533744f3a575157215'],
] as const;

interface JsonReport {
  documents: Array<{
    path: string;
    kind: string | null;
    valid: boolean;
    issues: Array<{ code: string; pointer: string; line?: number }>;
    digests?: Record<string, string>;
  }>;
}

describe('oap-conform validate: exit codes', async () => {
  it('exits 0 when every document is valid, one "ok" line each', async () => {
    const r = await cli('validate', `${DOCS}/valid`, `${DOCS}/same`, `${DOCS}/deltas/learned-conventions.delta.yaml`);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThanOrEqual(15);
    for (const line of lines) expect(line).toMatch(/^ok {3}fixtures\/documents\/\S+$/);
  });

  it('exits 1 for an invalid document and prints code, pointer, position and message', async () => {
    const file = `${DOCS}/invalid/secret-env-literal.agent.yaml`;
    const r = await cli('validate', file);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe('');
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(`FAIL ${file}`);
    expect(lines[1]).toMatch(/^ {2}secret-literal\.env \/spec\/tools\/mcp_servers\/0\/env\/TOKEN \(16:11\) \S/);
    expect(lines[2]).toMatch(/^ {2}schema\.pattern \/spec\/tools\/mcp_servers\/0\/env\/TOKEN \(16:11\) /);
    expect(r.stdout).not.toContain('abc123');
  });

  it('exits 2 with exactly one line for a missing file, before validating anything', async () => {
    const r = await cli('validate', `${DOCS}/valid/minimal.agent.yaml`, 'no/such/file.agent.yaml');
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('oap-conform: io.not-found: no/such/file.agent.yaml\n');
  });

  it('exits 2 on usage errors', async () => {
    const r = await cli('validate');
    expect(r.status).toBe(2);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^oap-conform: usage: /);
  });

  it('exits 2 when a directory holds no OAP documents', async () => {
    const r = await cli('validate', `${DOCS}/digest`);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^oap-conform: io\.no-documents: .*\n$/);
  });
});

describe('oap-conform validate: the fixture tree', async () => {
  it('reaches the manifest verdict for every fixture, without stack traces', async () => {
    const manifest = fixtures('documents');
    const r = await cli('validate', '--json', DOCS);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe('');
    const report = JSON.parse(r.stdout) as JsonReport;
    const verdicts = new Map(report.documents.map((d) => [d.path.slice(DOCS.length + 1), d.valid]));
    expect(verdicts.size).toBe(manifest.length);
    for (const f of manifest) expect(verdicts.get(f.file), f.file).toBe(f.expect.valid);
  });

  it('picks only *.agent.* and *.delta.* files in directories, but validates explicitly named files', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'oap-cli-'));
    try {
      mkdirSync(join(dir, 'nested'));
      writeFileSync(join(dir, 'nested', 'a.agent.json'), readFileSync(fromRoot(DOCS, 'valid', 'minimal.agent.json')));
      writeFileSync(join(dir, 'notes.json'), '{}');
      writeFileSync(join(dir, 'readme.txt'), 'text');
      const walked = await cli('validate', dir);
      expect(walked.status).toBe(0);
      expect(walked.stdout).toBe(`ok   ${join(dir, 'nested', 'a.agent.json')}\n`);
      const named = await cli('validate', join(dir, 'readme.txt'));
      expect(named.status).toBe(1);
      expect(named.stdout).toContain('parse.encoding-unknown');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('oap-conform validate --json', async () => {
  it('prints one JSON object with path, kind, valid and positioned issues', async () => {
    const r = await cli(
      'validate',
      '--json',
      `${DOCS}/valid/minimal.agent.yaml`,
      `${DOCS}/deltas/invalid/dotdot.delta.yaml`,
      `${DOCS}/invalid/kind-bundle.agent.yaml`,
    );
    expect(r.status).toBe(1);
    const report = JSON.parse(r.stdout) as JsonReport;
    expect(report.documents.map((d) => [d.kind, d.valid])).toEqual([
      ['AgentProfile', true],
      ['AgentStateDelta', false],
      [null, false],
    ]);
    expect(report.documents[1]?.issues[0]).toMatchObject({
      code: 'delta-scope.dot-segment',
      pointer: '/operations/0/path',
      line: expect.any(Number),
    });
    expect(report.documents[0]?.digests).toBeUndefined();
  });
});

describe('oap-conform validate --digest', async () => {
  it('reproduces the SPEC Appendix B digests (reported invalid: they are not OAP documents)', async () => {
    const files = APPENDIX_B.map(([f]) => `${DOCS}/digest/${f}`);
    const r = await cli('validate', '--digest', ...files);
    expect(r.status).toBe(1);
    for (const [file, hash] of APPENDIX_B) {
      expect(r.stdout).toContain(`FAIL ${DOCS}/digest/${file}\n  kind.missing /kind (1:1) `);
      expect(r.stdout).toContain(`  digest sha256:${hash}\n`);
    }
    const json = JSON.parse((await cli('validate', '--digest', '--json', ...files)).stdout) as JsonReport;
    expect(json.documents.map((d) => d.digests?.document)).toEqual(APPENDIX_B.map(([, h]) => `sha256:${h}`));
  });

  it('prints identical profile and spec digests for the three encodings of one profile', async () => {
    const r = await cli('validate', '--digest', '--json', `${DOCS}/same`);
    expect(r.status).toBe(0);
    const docs = (JSON.parse(r.stdout) as JsonReport).documents;
    expect(docs).toHaveLength(3);
    const profiles = new Set(docs.map((d) => d.digests?.profile));
    const specs = new Set(docs.map((d) => d.digests?.spec));
    expect(profiles.size).toBe(1);
    expect(specs.size).toBe(1);
    expect([...profiles][0]).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect([...specs][0]).not.toBe([...profiles][0]);
    const text = (await cli('validate', '--digest', `${DOCS}/same/reviewer.agent.md`)).stdout;
    expect(text).toMatch(/^ok {3}\S+\n {2}profile-digest sha256:[0-9a-f]{64}\n {2}spec-digest sha256:[0-9a-f]{64}\n$/);
  });

  it('prints only the document digest for a delta', async () => {
    const r = await cli('validate', '--digest', `${DOCS}/deltas/learned-conventions.delta.yaml`);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^ok {3}\S+\n {2}digest sha256:[0-9a-f]{64}\n$/);
  });

  it('prints no digest for a document that did not parse', async () => {
    const r = await cli('validate', '--digest', `${DOCS}/hostile/non-finite-inf.agent.yaml`);
    expect(r.status).toBe(1);
    expect(r.stdout).not.toContain('digest');
  });
});
