/**
 * `oap-conform validate` over 1,000 profile files in one call, against a per-file validator run
 * 1,000 times (the same CLI on one file, run SAMPLE times and scaled to 1,000: running it 1,000
 * times would take minutes and say the same) and against the oracle's in-process throughput
 * (loadDocumentFile on the same files in this process, after a warm-up).
 * Targets (issue 17): one call ≥ 3x faster than 1,000 per-file runs; within 2x of in-process.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadDocumentFile, type Encoding } from '../spec/document/index.js';
import { fromRoot } from '../spec/package-root.js';
import { distinct, median, runCli, type Target } from './measure.js';

const FILES = 1000;
const ENCODING_OF: Record<string, Encoding> = { '.agent.yaml': 'yaml', '.agent.json': 'json', '.agent.md': 'md' };
const SAMPLE = 20;
const RUNS = 3;

export async function benchValidate(): Promise<Target[]> {
  const src = fromRoot('fixtures', 'documents', 'valid');
  const sources = readdirSync(src)
    .filter((f) => /\.agent\.(yaml|json|md)$/.test(f))
    .map((f) => ({ ext: f.slice(f.indexOf('.agent.')), text: readFileSync(join(src, f), 'utf8') }));
  const dir = mkdtempSync(join(tmpdir(), 'oap-bench-validate-'));
  try {
    const files = Array.from({ length: FILES }, (_, i) => {
      const s = sources[i % sources.length]!;
      const path = join(dir, `p${String(i).padStart(4, '0')}${s.ext}`);
      // 1000 different files, as a user's tree has: none is a copy the parser has seen (see distinct).
      writeFileSync(path, distinct(s.text, ENCODING_OF[s.ext]!, i));
      return path;
    });
    const oneCall: number[] = [];
    for (let r = 0; r < RUNS; r++) {
      const m = await runCli(['validate', dir]);
      if (m.code !== 0) throw new Error(`validate over ${FILES} files exited ${m.code}`);
      oneCall.push(m.wallMs);
    }
    const perFile: number[] = [];
    for (let i = 0; i < SAMPLE; i++) perFile.push((await runCli(['validate', files[i * Math.floor(FILES / SAMPLE)]!])).wallMs);
    for (const f of files.slice(0, 100)) loadDocumentFile(f); // warm-up
    const inProcess: number[] = [];
    for (let r = 0; r < RUNS; r++) {
      const t0 = performance.now();
      for (const f of files) if (!loadDocumentFile(f).valid) throw new Error(`${f} is not valid`);
      inProcess.push(performance.now() - t0);
    }
    const one = median(oneCall);
    const thousand = median(perFile) * FILES;
    const inproc = median(inProcess);
    return [
      {
        name: `validate ${FILES} files in one call vs a per-file validator run ${FILES} times`,
        figure: `${(one / 1000).toFixed(2)} s vs ${(thousand / 1000).toFixed(0)} s`,
        target: '≥ 3x faster',
        ratio: `${(thousand / one).toFixed(0)}x faster`,
        met: thousand / one >= 3,
        how: `one call: median of ${RUNS}; per file: median of ${SAMPLE} runs x ${FILES}`,
      },
      {
        name: `validate ${FILES} files in one call vs the oracle in-process`,
        figure: `${((FILES / one) * 1000).toFixed(0)} docs/s vs ${((FILES / inproc) * 1000).toFixed(0)} docs/s`,
        target: 'within 2x',
        ratio: `${(one / inproc).toFixed(2)}x the in-process time (process start and module load included)`,
        met: one / inproc <= 2,
        how: `medians of ${RUNS}`,
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { formatTargets } = await import('./measure.js');
  process.stdout.write(formatTargets(await benchValidate()));
}
