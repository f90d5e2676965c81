/**
 * The composite Action's script (action.yml), run by bash with a stand-in `npx` on PATH: the
 * `package` input has no silent registry default (empty is exit 2), an npx that cannot fetch or
 * start the package is exit 5 (not 1, which is a conformance failure), and oap-conform's own exit
 * code passes through, with the outputs written either way.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ACTION_NPX_FAILED, EXIT } from '../../runner/exit-codes.js';
import { fromRoot } from '../../spec/package-root.js';

interface Action {
  inputs: Record<string, { required?: boolean; default?: string }>;
  outputs: Record<string, { description: string }>;
  runs: { steps: { run: string }[] };
}
const action = parse(readFileSync(fromRoot('action.yml'), 'utf8')) as Action;
const dir = mkdtempSync(join(tmpdir(), 'oap-action-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Run the step's script with `npx` answering `--version` with `version` and `run` with `run` (exit codes). */
function step(pkg: string, npx: { version: number; run: number }): { status: number | null; stdout: string; outputs: string } {
  const bin = mkdtempSync(join(dir, 'bin-'));
  writeFileSync(
    join(bin, 'npx'),
    `#!/bin/sh\ncase "$3" in --version) exit ${npx.version};; run) echo "ran $*"; exit ${npx.run};; esac\nexit 99\n`,
  );
  chmodSync(join(bin, 'npx'), 0o755);
  const outputs = join(bin, 'outputs');
  writeFileSync(outputs, '');
  const r = spawnSync('bash', ['-c', action.runs.steps[0]!.run], {
    cwd: dir,
    encoding: 'utf8',
    env: {
      PATH: `${bin}:${process.env.PATH}`,
      GITHUB_OUTPUT: outputs,
      OAP_ADAPTER: 'node adapter.js',
      OAP_LEVEL: '1',
      OAP_BASELINE: '',
      OAP_OUT: join(bin, 'results'),
      OAP_ARGS: '',
      OAP_PACKAGE: pkg,
    },
  });
  return { status: r.status, stdout: r.stdout, outputs: readFileSync(outputs, 'utf8') };
}

describe('the Action', () => {
  it('has no default package: the input is required, and an empty one is exit 2 naming it', () => {
    expect(action.inputs.package?.default).toBeUndefined();
    expect(action.inputs.package?.required).toBe(true);
    const r = step('', { version: 0, run: 0 });
    expect(r.status).toBe(2);
    expect(r.stdout).toMatch(/::error::oap-conform: the package input is required/);
    expect(r.outputs).toContain('exit-code=2');
  });

  it('an npx that cannot fetch or start the package is exit 5, and the run never starts', () => {
    const r = step('oap-conform@0.0.0-missing', { version: 1, run: 0 });
    expect(r.status).toBe(5);
    expect(r.stdout).toMatch(/npx could not fetch or start the package oap-conform@0\.0\.0-missing/);
    expect(r.stdout).not.toMatch(/^ran /m);
    expect(r.outputs).toContain('exit-code=5');
  });

  it.each([0, 1, 3, 4])('oap-conform exit %i passes through as the step exit code and output', (code) => {
    const r = step('./ci/oap-conform-0.1.0.tgz', { version: 0, run: code });
    expect(r.status).toBe(code);
    expect(r.stdout).toMatch(/^ran --yes \.\/ci\/oap-conform-0\.1\.0\.tgz run --adapter node adapter\.js --out .* --level 1$/m);
    expect(r.outputs).toContain(`exit-code=${code}`);
  });

  it('every exit code is documented alike in action.yml, README.md and docs/CI.md', () => {
    const codes = [...Object.values(EXIT), ACTION_NPX_FAILED];
    const described = action.outputs['exit-code']!.description;
    for (const code of codes) expect(described, `action.yml: ${code}`).toMatch(new RegExp(`\\b${code} `));
    for (const doc of ['README.md', 'docs/CI.md']) {
      const text = readFileSync(fromRoot(...doc.split('/')), 'utf8');
      const table = text.slice(text.indexOf('## Exit codes'));
      for (const code of codes) expect(table, `${doc}: ${code}`).toMatch(new RegExp(`^\\| ${code} \\|`, 'm'));
    }
  });
});
