/**
 * Everything a run emits has a JSON Schema in results-schema/ (result.json: the official
 * oap.conformance-result.v1) and real output validates against it: a small certification run
 * (result, report, statement, badge, every journal line) and a mutant run whose fuzz finding files
 * are validated too.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { schemaProblems, type SchemaName } from '../../results/schemas.js';
import { fromRoot } from '../../spec/package-root.js';
import { runCli } from '../support/cli.js';
import { referenceLevel1 } from '../support/reference-run.js';

const dir = mkdtempSync(join(tmpdir(), 'oap-emitted-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A run through the CLI in this process (tests/support/cli.ts). */
async function run(adapter: string, out: string, extra: string[]): Promise<void> {
  const r = await runCli(['--adapter', adapter, '--level', '1', '--seed', '5', '--out', out, '--allow-dirty', '--quiet', ...extra]);
  expect(r.status === 0 || r.status === 1, r.stderr).toBe(true);
}

const json = (path: string): unknown => JSON.parse(readFileSync(path, 'utf8'));
const valid = (name: SchemaName, doc: unknown): void => expect(schemaProblems(name, doc)).toEqual([]);

describe('emitted files validate against their schemas', () => {
  it('result, report, statement, badge and every journal line of a run', async () => {
    // The reference's Level 1 certification several files share (tests/support/reference-run.ts).
    const out = await referenceLevel1();
    valid('result', json(join(out, 'result.json')));
    valid('report', json(join(out, 'report.json')));
    valid('statement', json(join(out, 'statement.json')));
    valid('badge', json(join(out, 'badge.json')));
    const lines = readFileSync(join(out, 'journal.ndjson'), 'utf8').trim().split('\n');
    expect(lines.length).toBeGreaterThan(100);
    for (const line of lines) valid('journal-line', JSON.parse(line));
  }, 120_000);

  it('validate --json --digest over every document fixture', async () => {
    const r = await runCli(['validate', fromRoot('fixtures', 'documents'), '--json', '--digest']);
    expect(r.status).toBe(1); // the tree holds negative fixtures
    const doc = JSON.parse(r.stdout) as { documents: unknown[] };
    expect(doc.documents.length).toBeGreaterThan(100);
    valid('validate-output', doc);
  });

  it('fuzz finding files', async () => {
    const out = join(dir, 'mutant');
    await run('builtin:mutant/union-tools', out, ['--fuzz', '300', '--filter', 'fuzz/*']);
    const files = readdirSync(join(out, 'findings'));
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) valid('fuzz-finding', json(join(out, 'findings', f)));
  }, 120_000);
});
