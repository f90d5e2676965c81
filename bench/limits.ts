/**
 * How fast the oracle refuses hostile inputs (the time bounds that used to be assertions in
 * tests/oracle/limits.test.ts, which keeps the behaviour: each input is refused with its code).
 * Each row: the input, the issue code, the median of RUNS refusals, the bound, and their ratio.
 * Run alone with `node dist/bench/limits.js` after a build, or through bench/index.ts.
 */
import { pathToFileURL } from 'node:url';
import { DEFAULT_LIMITS, parseDocument, type Encoding } from '../spec/document/index.js';
import { fixture, fixtureBytes } from '../fixtures/index.js';
import { distinct } from './measure.js';

const RUNS = 5;

/** The negative fixture doc-neg-billion-laughs: nine levels of nine aliases each. */
const billionLaughs = (): string => fixtureBytes(fixture('documents', 'doc-neg-billion-laughs')).toString('utf8');

const DEEP = 100_000;
const INPUTS: Array<{ name: string; text: string; encoding: Encoding; code: string; boundMs: number }> = [
  { name: 'billion laughs (9x9 aliases)', text: billionLaughs(), encoding: 'yaml', code: 'limit.aliases', boundMs: 500 },
  {
    name: 'two aliases of a 60k-element node',
    text: `a: &a [${Array(60_000).fill('1').join(',')}]\nb: *a\nc: *a\n`,
    encoding: 'yaml',
    code: 'limit.aliases',
    boundMs: 2000,
  },
  { name: 'JSON arrays 100k deep', text: '['.repeat(DEEP) + ']'.repeat(DEEP), encoding: 'json', code: 'limit.depth', boundMs: 500 },
  {
    name: 'JSON objects 100k deep',
    text: `${'{"a":'.repeat(DEEP)}1${'}'.repeat(DEEP)}`,
    encoding: 'json',
    code: 'limit.depth',
    boundMs: 500,
  },
  { name: 'YAML flow sequences 100k deep', text: '['.repeat(DEEP) + ']'.repeat(DEEP), encoding: 'yaml', code: 'limit.depth', boundMs: 500 },
  {
    name: 'YAML flow mappings 100k deep',
    text: `${'{a: '.repeat(DEEP)}1${'}'.repeat(DEEP)}`,
    encoding: 'yaml',
    code: 'limit.depth',
    boundMs: 500,
  },
  { name: 'YAML block sequences 100k deep', text: `${'- '.repeat(DEEP)}x\n`, encoding: 'yaml', code: 'limit.depth', boundMs: 500 },
  {
    name: 'Markdown frontmatter 100k deep',
    text: `---\nx: ${'['.repeat(DEEP)}${']'.repeat(DEEP)}\n---\nbody\n`,
    encoding: 'md',
    code: 'limit.depth',
    boundMs: 500,
  },
  {
    name: 'a string 1 byte over the size limit',
    text: `a: "${'x'.repeat(DEFAULT_LIMITS.maxBytes + 1)}"\n`,
    encoding: 'yaml',
    code: 'limit.size',
    boundMs: 200,
  },
];

export interface LimitRow {
  input: string;
  code: string;
  medianMs: number;
  boundMs: number;
  ratio: number;
  met: boolean;
}

export function benchLimits(): LimitRow[] {
  return INPUTS.map((i) => {
    const times: number[] = [];
    for (let r = 0; r < RUNS; r++) {
      const t0 = performance.now();
      const res = parseDocument(distinct(i.text, i.encoding, r), i.encoding);
      times.push(performance.now() - t0);
      const got = res.ok ? 'accepted' : res.issues.map((x) => x.code).join(',');
      if (got !== i.code) throw new Error(`${i.name}: expected ${i.code}, got ${got}`);
    }
    times.sort((a, b) => a - b);
    const medianMs = times[RUNS >> 1]!;
    return { input: i.name, code: i.code, medianMs, boundMs: i.boundMs, ratio: medianMs / i.boundMs, met: medianMs <= i.boundMs };
  });
}

export function formatLimits(rows: LimitRow[]): string {
  return rows
    .map(
      (r) =>
        `${r.input}: refused (${r.code}) in ${r.medianMs.toFixed(1)} ms, bound ${r.boundMs} ms, ${(r.ratio * 100).toFixed(0)}% of it (${r.met ? 'met' : 'MISSED'})\n`,
    )
    .join('');
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.stdout.write(formatLimits(benchLimits()));
}
