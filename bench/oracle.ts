/**
 * Oracle throughput: documents validated per second (parse + version/kind + schema + rules) per
 * encoding, validation alone on parsed data, and digests per second. Run on its own with
 * `node dist/bench/oracle.js` after a build, or through bench/index.ts.
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { Bench } from 'tinybench';
import { distinct } from './measure.js';
import { loadDocument, parseDocument, profileDigest, specDigest, validateDocument, type Encoding } from '../spec/document/index.js';
import { fromRoot } from '../spec/package-root.js';

const TARGET_DOCS_PER_SECOND = 1000;

function fixture(...segments: string[]): string {
  return readFileSync(fromRoot('fixtures', 'documents', ...segments), 'utf8');
}

export async function benchOracle(): Promise<void> {
  // A realistic profile (state, history, permissions) in YAML, and one profile in all encodings.
  const reviewerYaml = fixture('valid', 'code-reviewer.agent.yaml');
  const same: Record<Encoding, string> = {
    yaml: fixture('same', 'reviewer.agent.yaml'),
    json: fixture('same', 'reviewer.agent.json'),
    md: fixture('same', 'reviewer.agent.md'),
  };
  const parsed = parseDocument(reviewerYaml, 'yaml');
  if (!parsed.ok) throw new Error('bench fixture code-reviewer.agent.yaml does not parse');
  const reviewer = parsed.value;
  if (!loadDocument(reviewerYaml, 'yaml').valid) throw new Error('bench fixture code-reviewer.agent.yaml is not valid');

  // Each load parses a text not seen before (see distinct): what validating many files costs.
  let n = 0;
  const bench = new Bench({ time: 700, warmupTime: 200 });
  bench
    .add('load code-reviewer.agent.yaml (parse+validate)', () => loadDocument(distinct(reviewerYaml, 'yaml', n++), 'yaml'))
    .add('load reviewer.agent.yaml (parse+validate)', () => loadDocument(distinct(same.yaml, 'yaml', n++), 'yaml'))
    .add('load reviewer.agent.json (parse+validate)', () => loadDocument(distinct(same.json, 'json', n++), 'json'))
    .add('load reviewer.agent.md (parse+validate)', () => loadDocument(distinct(same.md, 'md', n++), 'md'))
    .add('validateDocument(code-reviewer) only', () => validateDocument(reviewer))
    .add('profileDigest(code-reviewer)', () => profileDigest(reviewer))
    .add('specDigest(code-reviewer)', () => specDigest(reviewer));
  await bench.run();

  const rows = bench.tasks.map((task) => {
    const r = task.result;
    const stats = 'throughput' in r ? r : undefined;
    return {
      task: task.name,
      'ops/s': stats ? Math.round(stats.throughput.mean) : 'n/a',
      'mean µs': stats ? Number((stats.latency.mean * 1000).toFixed(1)) : 'n/a',
      '±%': stats ? Number(stats.latency.rme.toFixed(1)) : 'n/a',
    };
  });
  console.table(rows);
  process.stdout.write(`target: ≥ ${TARGET_DOCS_PER_SECOND} documents/s validated per encoding\n`);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await benchOracle();
}
