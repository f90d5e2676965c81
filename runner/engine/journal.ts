import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { CliError, EXIT } from '../exit-codes.js';
import type { CaseRecord, RunHeader } from '../../results/model.js';

/**
 * OUT/journal.ndjson: the run header on the first line, then one CaseRecord per line, appended
 * synchronously as each case finishes, so an interrupted or crashed run keeps every finished case.
 * A torn last line (the runner died mid-write) is ignored on reading.
 */
export class Journal {
  private constructor(readonly path: string) {}

  static create(path: string, header: RunHeader): Journal {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `${JSON.stringify(header)}\n`);
    return new Journal(path);
  }

  static append(path: string): Journal {
    // A torn last line (no newline) would swallow the next record into it: end it first.
    if (existsSync(path)) {
      const text = readFileSync(path, 'utf8');
      if (text.length > 0 && !text.endsWith('\n')) appendFileSync(path, '\n');
    }
    return new Journal(path);
  }

  write(record: CaseRecord): void {
    appendFileSync(this.path, `${JSON.stringify(record)}\n`);
  }
}

export interface JournalContents {
  header: RunHeader;
  records: CaseRecord[];
}

export function readJournal(path: string): JournalContents | undefined {
  if (!existsSync(path)) return undefined;
  const lines = readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.length > 0);
  if (lines.length === 0) return undefined;
  // --resume must never start over on top of a journal it cannot read: that would discard its cases.
  const unreadable = (why: string) =>
    new CliError('resume-unreadable', `cannot resume ${path}: ${why} (move it away to start a fresh run)`, EXIT.USAGE);
  let header: RunHeader;
  try {
    header = JSON.parse(lines[0]!) as RunHeader;
  } catch {
    throw unreadable('its first line is not a run header');
  }
  if (header === null || typeof header !== 'object' || header.schema !== 'oap-conform.report.v1')
    throw unreadable('its first line is not an oap-conform.report.v1 run header');
  const records: CaseRecord[] = [];
  for (const line of lines.slice(1)) {
    try {
      const rec = JSON.parse(line) as CaseRecord;
      if (typeof rec.id === 'string' && typeof rec.status === 'string') records.push(rec);
    } catch {
      // torn write at the end of an interrupted run
    }
  }
  // The last record for an ID wins (a resumed run never writes one twice, but be robust).
  const byId = new Map(records.map((r) => [r.id, r]));
  return { header, records: [...byId.values()] };
}

/**
 * Why a journal cannot be resumed with this header, or undefined when it can. Kept records are
 * evidence about one adapter at one revision of the suite, so every input that can change a verdict
 * must match, and each mismatch gets its own message.
 */
export function resumeMismatch(
  old: RunHeader,
  current: Pick<RunHeader, 'manifest_digest' | 'seed' | 'adapter' | 'level' | 'fixture_revision' | 'fixture_dirty' | 'runner' | 'options'>,
): string | undefined {
  const was = old.adapter?.handshake?.implementation;
  const now = current.adapter.handshake.implementation;
  if (old.adapter?.spec !== current.adapter.spec || was?.name !== now.name)
    return `it was written for another adapter (${old.adapter?.spec} reporting ${was?.name}, now ${current.adapter.spec} reporting ${now.name})`;
  if (was?.version !== now.version) return `the adapter's version changed (${was?.version} -> ${now.version})`;
  if (old.fixture_revision !== current.fixture_revision || old.fixture_dirty !== current.fixture_dirty)
    return `the suite's fixture revision changed (${old.fixture_revision}${old.fixture_dirty ? ' dirty' : ''} -> ${current.fixture_revision}${current.fixture_dirty ? ' dirty' : ''})`;
  if (old.runner?.version !== current.runner.version)
    return `the runner version changed (${old.runner?.version} -> ${current.runner.version})`;
  if (old.level !== current.level) return `the judged level differs (${old.level} vs ${current.level})`;
  if (old.seed !== current.seed) return `the seed differs (${old.seed} vs ${current.seed})`;
  if (old.options?.fuzz !== current.options.fuzz) return `the fuzz budget differs (${old.options?.fuzz} vs ${current.options.fuzz})`;
  if (old.options?.fixtures_digest !== current.options.fixtures_digest)
    return `the replayed fixture tree differs (${old.options?.fixtures_digest ?? 'none'} -> ${current.options.fixtures_digest ?? 'none'})`;
  if (old.manifest_digest !== current.manifest_digest)
    return `the case manifest changed (${old.manifest_digest} -> ${current.manifest_digest})`;
  return undefined;
}
