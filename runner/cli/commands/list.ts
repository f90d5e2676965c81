import type { Command } from 'commander';
import { chaosFaults, loadMutants } from '../../../harnesses/builtin.js';
import { allCases, caseLevel } from '../../../suites/index.js';
import { REQUIREMENTS } from '../../../spec/requirements.js';
import { coverageMarkdown, coverageRows } from '../../coverage.js';
import { CliError, EXIT } from '../../exit-codes.js';

const WHAT = ['requirements', 'cases', 'mutants', 'chaos'] as const;
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
  if (what === 'cases') {
    return allCases()
      .map((c) => ({
        id: c.id,
        level: caseLevel(c),
        requirements: c.requirements,
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
    if (what === 'cases') return `${String(r.id)}  [${(r.requirements as string[]).join(', ')}]  ${String(r.title)}`;
    if (what === 'chaos') return `${String(r.adapter).padEnd(34)} ${String(r.description)}`;
    return `${String(r.name).padEnd(28)} breaks ${(r.breaks as string[]).join(', ')}: ${String(r.description)}`;
  });
  return `${lines.join('\n')}\n`;
}

export function register(program: Command): void {
  program
    .command('list')
    .description('list requirements (with the cases that prove them), cases, mutant adapters, or chaos adapter faults')
    .argument('<what>', WHAT.join('|'))
    .option('--json', 'machine-readable output')
    .option('--markdown', 'requirements only: the coverage table of IDs, checks and mutants (COVERAGE.md)')
    .action(async (what: string, flags: { json?: boolean; markdown?: boolean }) => {
      if (!(WHAT as readonly string[]).includes(what))
        throw new CliError('usage', `list what? ${WHAT.join(', ')} (got ${what})`, EXIT.USAGE);
      if (flags.markdown) {
        if (what !== 'requirements') throw new CliError('usage', '--markdown goes with `list requirements`', EXIT.USAGE);
        const mutants = await rows('mutants');
        process.stdout.write(coverageMarkdown(coverageRows(allCases(), mutants as unknown as Parameters<typeof coverageRows>[1])));
        return;
      }
      const list = await rows(what as What);
      process.stdout.write(flags.json ? `${JSON.stringify(list, null, 2)}\n` : text(what as What, list));
    });
}
