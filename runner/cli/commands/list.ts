import type { Command } from 'commander';
import { chaosFaults, loadMutants } from '../../../harnesses/builtin.js';
import { allCases, caseLevel } from '../../../suites/index.js';
import { REQUIREMENTS } from '../../../spec/requirements.js';
import { coverageMarkdown, coverageRows, sentenceRows, sentencesMarkdown } from '../../coverage.js';
import { CliError, EXIT } from '../../exit-codes.js';

const WHAT = ['requirements', 'cases', 'sentences', 'mutants', 'chaos'] as const;
type What = (typeof WHAT)[number];

async function rows(what: What): Promise<Record<string, unknown>[]> {
  if (what === 'requirements') {
    const cases = allCases();
    return REQUIREMENTS.map((r) => ({
      ...r,
      cases: cases
        .filter((c) => c.requirements.includes(r.id))
        .map((c) => c.id)
        .sort(),
    }));
  }
  if (what === 'sentences') return sentenceRows(allCases()).map((r) => ({ ...r }));
  if (what === 'cases') {
    return allCases()
      .map((c) => ({
        id: c.id,
        level: caseLevel(c),
        requirements: c.requirements,
        clauses: c.clauses,
        title: c.title,
        ...(c.fixtures ? { fixtures: c.fixtures } : {}),
      }))
      .sort((a, b) => (a.id < b.id ? -1 : 1));
  }
  if (what === 'chaos') return (await chaosFaults()).map((f) => ({ ...f, adapter: `builtin:chaos/${f.name}` }));
  try {
    return (await loadMutants()).map((m) => ({ ...m }));
  } catch (err) {
    throw new CliError('mutants-unavailable', (err as Error).message, EXIT.USAGE);
  }
}

function text(what: What, list: Record<string, unknown>[]): string {
  const lines = list.map((r) => {
    if (what === 'requirements') {
      const cases = r.cases as string[];
      return `${String(r.id).padEnd(7)} ${String(r.strength).padEnd(6)} ${String(r.title)}\n        cases: ${cases.length ? cases.join(', ') : '(none)'}`;
    }
    if (what === 'cases') return `${String(r.id)}  [${(r.clauses as string[]).join(', ')}]  ${String(r.title)}`;
    if (what === 'sentences') {
      const by =
        r.excluded !== null
          ? `excluded: ${String(r.excluded)}`
          : [...(r.clauses as string[]), ...(r.advisory !== null ? [String(r.advisory)] : [])].join(', ') || 'not checked (SHOULD)';
      return `${String(r.id).padEnd(12)} ${String(r.keyword).padEnd(8)} ${String(r.text)}\n             ${by}${r.excluded !== null ? '' : `; ${(r.cases as string[]).length} case(s)`}`;
    }
    if (what === 'chaos') return `${String(r.adapter).padEnd(34)} ${String(r.description)}`;
    const awaiting = r.awaiting === undefined ? '' : ` (awaiting ${String(r.awaiting)})`;
    return `${String(r.name).padEnd(28)} breaks ${(r.breaks as string[]).join(', ')}: ${String(r.description)}${awaiting}`;
  });
  return `${lines.join('\n')}\n`;
}

export function register(program: Command): void {
  program
    .command('list')
    .description(
      'list requirements (with the cases that prove them), cases (with the clauses they observe), the normative sentences of the spec, mutant adapters, or chaos adapter faults',
    )
    .argument('<what>', WHAT.join('|'))
    .option('--json', 'machine-readable output')
    .option('--markdown', 'requirements: COVERAGE.md (IDs, clauses, checks, mutants, sentences); sentences: its sentence section')
    .action(async (what: string, flags: { json?: boolean; markdown?: boolean }) => {
      if (!(WHAT as readonly string[]).includes(what))
        throw new CliError('usage', `list what? ${WHAT.join(', ')} (got ${what})`, EXIT.USAGE);
      if (flags.markdown) {
        if (flags.json) throw new CliError('usage', '--json and --markdown exclude each other', EXIT.USAGE);
        if (what === 'sentences') {
          process.stdout.write(sentencesMarkdown(sentenceRows(allCases())));
          return;
        }
        if (what !== 'requirements')
          throw new CliError('usage', '--markdown goes with `list requirements` or `list sentences`', EXIT.USAGE);
        const mutants = await rows('mutants');
        const cases = allCases();
        process.stdout.write(
          coverageMarkdown(coverageRows(cases, mutants as unknown as Parameters<typeof coverageRows>[1]), sentenceRows(cases)),
        );
        return;
      }
      const list = await rows(what as What);
      process.stdout.write(flags.json ? `${JSON.stringify(list, null, 2)}\n` : text(what as What, list));
    });
}
