import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { caseLevel, REQUIREMENTS, type Requirement } from '../spec/requirements.js';
import type { ManifestCase, RunReport } from './model.js';

/**
 * The manifest digest pins what a run judged against: sha256 (hex, `sha256:` prefix) of the JCS
 * form of {requirements, cases: [{id, requirements}]} with cases sorted by ID. Two runs with the
 * same digest ran the same checks for the same requirements; `--resume` and `merge` refuse to mix
 * runs that differ, and `verify` recomputes it from the case list the report carries.
 */
export function manifestDigest(cases: readonly ManifestCase[], requirements: readonly Requirement[] = REQUIREMENTS): string {
  const text = (canonicalize as unknown as (v: unknown) => string | undefined)({ requirements, cases: manifestCases(cases) });
  if (text === undefined) throw new Error('manifest is not canonicalizable');
  return `sha256:${createHash('sha256').update(text).digest('hex')}`;
}

/** The manifest's case list as the report header carries it: sorted by ID, IDs and requirements only. */
export function manifestCases(cases: readonly ManifestCase[]): ManifestCase[] {
  return [...cases].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).map((c) => ({ id: c.id, requirements: [...c.requirements] }));
}

/**
 * Cases the manifest asks for at the judged level and below that have no record: a report with any
 * covers part of the suite only (a missing shard, a filter, a lost journal) and can never certify.
 */
export function missingCases(report: Pick<RunReport, 'header' | 'cases'>): string[] {
  const recorded = new Set(report.cases.map((c) => c.id));
  return report.header.manifest_cases.filter((c) => caseLevel(c) <= report.header.level && !recorded.has(c.id)).map((c) => c.id);
}
