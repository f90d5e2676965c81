import type { CaseRecord, RunFooter, RunReport } from './model.js';
import { countStatuses } from './predicates.js';
import { headerDifference } from './run-stream.js';

/**
 * Joins the runs of `--shard k/n` (each read through results/run-stream.ts, so each has its footer)
 * into one report. Shards are one run only when their headers agree on everything but the shard
 * index (headerDifference: the suite, the adapter, the level, the seed and every option that
 * selects or judges a case); anything else is refused, naming the field, rather than averaged into
 * a result nobody ran.
 */
class MergeError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface Shard {
  source: string;
  report: RunReport;
}

export function mergeReports(shards: readonly Shard[]): RunReport {
  if (shards.length === 0) throw new MergeError('no-shards', 'nothing to merge: give at least one result directory');
  const first = shards[0]!;
  for (const shard of shards.slice(1)) {
    // Shards of one run differ in their index and may differ in the checkout's state (ORed below).
    const d = headerDifference(first.report.header, shard.report.header, ['options.shard.index', 'fixture_dirty']);
    if (d) throw new MergeError('shard-mismatch', `${shard.source} differs from ${first.source} in ${d.field}: ${d.now} vs ${d.was}`);
  }
  const seenShard = new Map<number, string>();
  for (const s of shards) {
    const index = s.report.header.options.shard?.index;
    if (index === undefined) continue;
    const prev = seenShard.get(index);
    if (prev) throw new MergeError('duplicate-shard', `${s.source} and ${prev} are both shard ${index}`);
    seenShard.set(index, s.source);
  }
  const owner = new Map<string, string>();
  const cases: CaseRecord[] = [];
  for (const s of shards) {
    for (const c of s.report.cases) {
      const prev = owner.get(c.id);
      if (prev) throw new MergeError('duplicate-case', `case ${c.id} appears in both ${prev} and ${s.source}`);
      owner.set(c.id, s.source);
      cases.push(c);
    }
  }

  const { shard: _shard, ...options } = first.report.header.options;
  const header = {
    ...first.report.header,
    options,
    fixture_dirty: shards.some((s) => s.report.header.fixture_dirty),
    started_at: minIso(shards.map((s) => s.report.header.started_at)),
  };
  return {
    header,
    cases,
    footer: mergeFooters(
      shards.map((s) => s.report.footer),
      cases,
    ),
  };
}

function mergeFooters(all: RunFooter[], cases: CaseRecord[]): RunFooter {
  const counts = countStatuses(cases);
  const footer: RunFooter = {
    finished_at: maxIso(all.map((f) => f.finished_at)),
    complete: all.every((f) => f.complete),
    interrupted: all.some((f) => f.interrupted),
    counts,
  };
  const fuzz = all.map((f) => f.fuzz).filter((f) => f !== undefined);
  if (fuzz.length > 0) {
    footer.fuzz = {
      seed: fuzz[0]!.seed,
      cases: fuzz.reduce((n, f) => n + f.cases, 0),
      findings: fuzz.flatMap((f) => f.findings).sort(),
    };
    const rejected = fuzz.filter((f) => f.rejected_generated !== undefined);
    if (rejected.length > 0) footer.fuzz.rejected_generated = rejected.reduce((n, f) => n + f.rejected_generated!, 0);
  }
  const adapterError = all.find((f) => f.adapter_error)?.adapter_error;
  if (adapterError) footer.adapter_error = adapterError;
  return footer;
}

const minIso = (xs: string[]) => xs.reduce((a, b) => (Date.parse(b) < Date.parse(a) ? b : a));
const maxIso = (xs: string[]) => xs.reduce((a, b) => (Date.parse(b) > Date.parse(a) ? b : a));

/** Shard indices 1..n that none of the given shards ran (the merged result then lacks their cases). */
export function missingShards(shards: readonly Shard[]): number[] {
  const count = shards[0]?.report.header.options.shard?.count;
  if (count === undefined) return [];
  const have = new Set(shards.map((s) => s.report.header.options.shard?.index));
  return Array.from({ length: count }, (_, i) => i + 1).filter((i) => !have.has(i));
}
