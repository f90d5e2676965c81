/**
 * Generators only generate what they claim. Every property's arbitrary runs over many seeds, and
 * each input is held to the property's own contract (`malformed`: every "valid" document passes the
 * full oracle, every "invalid" one is refused for the reason it names, one text per single-valued
 * field, unique ids, paths that really escape) and, for the documents a property calls valid, to
 * the oracle directly. The contract is itself tested against inputs with the bugs the generators
 * used to have, so a contract that accepts anything would fail here.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validateDocument } from '../../spec/document/index.js';
import { fakerDocument, fakerProblem } from '../../fuzz/gen/faker.js';
import { buildState, type Placement } from '../../fuzz/gen/injection.js';
import { PROPERTIES, propertyByName } from '../../fuzz/registry.js';
import { fuzzCases } from '../../fuzz/index.js';
import { clauseProblem } from '../../suites/index.js';

const SEEDS = 200;
const SAMPLES = 3;
/** json-schema-faker costs ~20-60 ms a document; fewer seeds keep this test quick. */
const FAKER_SEEDS = 40;

const errorsOf = (doc: unknown) => validateDocument(doc).issues.filter((i) => i.severity === 'error');

/** The documents an input carries that its property calls valid (the faker's, a profile, a chain). */
function claimedValid(name: string, input: Record<string, unknown>): unknown[] {
  switch (name) {
    case 'narrowing':
    case 'tool-policy':
      return [input.profile];
    case 'extends':
    case 'delegation':
      return [input.profile, ...(input.chain as unknown[])];
    case 'vars':
      return [input.profile, { ...(input.profile as object), state: input.state }];
    case 'injection':
    case 'delimiter':
    case 'authority':
      return [input.profile];
    case 'delta-scope':
    case 'reserved-ops':
      return [input.profile];
    case 'faker':
      return [input.document];
    case 'invalid-instantiate':
      return [input.control];
    default:
      return [];
  }
}

describe('every property', () => {
  it('names clauses of the one requirement it is attributed to, and its cases carry them', () => {
    const problems = PROPERTIES.map((p) => clauseProblem({ id: p.name, requirements: [p.requirement], clauses: p.clauses })).filter(
      Boolean,
    );
    expect(problems).toEqual([]);
    const cases = fuzzCases({ budget: PROPERTIES.length, seed: 1, findingsDir: 'unused' });
    expect(cases.map((c) => [c.id, c.clauses])).toEqual(cases.map((c) => [c.id, propertyByName(c.fuzz.property)!.clauses]));
  });
});

describe('every generator, over many seeds', () => {
  it.each(PROPERTIES.map((p) => [p.name, p] as const))('%s generates only inputs that meet its own contract', (name, prop) => {
    const seeds = name === 'faker' ? FAKER_SEEDS : SEEDS;
    const problems: string[] = [];
    let n = 0;
    for (let seed = 1; seed <= seeds; seed++) {
      for (const input of fc.sample(prop.arbitrary(), { seed, numRuns: name === 'faker' ? 1 : SAMPLES })) {
        n++;
        const why = prop.malformed(input);
        if (why) problems.push(`seed ${seed}: ${why}`);
        for (const doc of claimedValid(name, input as Record<string, unknown>)) {
          const e = errorsOf(doc)[0];
          if (e) problems.push(`seed ${seed}: a document it calls valid is refused by the oracle: ${e.code} at ${e.pointer}`);
        }
      }
    }
    expect(n).toBeGreaterThanOrEqual(seeds);
    expect(problems.slice(0, 5)).toEqual([]);
  });
});

describe('the contracts catch the generator bugs they exist for', () => {
  const vars = propertyByName('vars')!;
  const sample = <T>(name: string): T => fc.sample(propertyByName(name)!.arbitrary(), { seed: 7, numRuns: 1 })[0] as T;

  it('two texts in the single summary field', () => {
    const input = sample<{ placements: Placement[]; state: Record<string, unknown> }>('vars');
    const placements: Placement[] = [
      { field: 'summary', text: 'OAPFZX-0 remember ${{ vars.ROLE }} here' },
      { field: 'summary', text: 'OAPFZX-1 remember ${{ vars.UNDEFINED_FZ }} here' },
    ];
    expect(vars.malformed({ ...input, placements, state: buildState(placements) })).toMatch(/two placements in the state field summary/);
  });

  it('two open threads with one id', () => {
    const input = sample<{ placements: Placement[]; state: Record<string, unknown> }>('vars');
    const placements: Placement[] = [
      { field: 'open_threads.id', text: 'OAPFZX remember ${{ vars.ROLE }} here' },
      { field: 'facts.id', text: 'OAPFZX remember ${{ vars.ROLE }} here' },
    ];
    expect(vars.malformed({ ...input, placements, state: buildState(placements) })).toMatch(/share the id/);
  });

  it('a state that is not the one its placements describe', () => {
    const input = sample<{ placements: Placement[]; state: Record<string, unknown> }>('injection');
    expect(propertyByName('injection')!.malformed({ ...input, state: { summary: 'something else' } })).toMatch(/not the one/);
  });

  it('a faker document whose history is not newest-last, or logs a revision above metadata.revision', () => {
    const base = {
      oap: '1.0',
      kind: 'AgentProfile',
      metadata: { name: 'fz', description: 'd', revision: 4 },
      spec: { role: { instructions: 'x' } },
    };
    const at = (d: number) => `2030-01-0${d}T00:00:00Z`;
    expect(fakerProblem({ ...base, history: [{ revision: 3, at: at(1) }] })).toBeUndefined();
    expect(
      fakerProblem({
        ...base,
        history: [
          { revision: 4, at: at(1) },
          { revision: 3, at: at(2) },
        ],
      }),
    ).toMatch(/other\.history-order/);
    expect(fakerProblem({ ...base, history: [{ revision: 5, at: at(1) }] })).toMatch(/other\.history-ahead/);
    expect(
      fakerProblem({
        ...base,
        history: [
          { revision: 2, at: at(2) },
          { revision: 3, at: at(1) },
        ],
      }),
    ).toMatch(/older/);
    const faker = propertyByName('faker')!;
    expect(faker.malformed({ seed: 1, encoding: 'yaml', document: { ...base, history: [{ revision: 9, at: at(1) }] } })).toMatch(
      /history-ahead/,
    );
  });

  it('faker documents with history are repaired, not dropped', () => {
    const withHistory = Array.from({ length: 20 }, (_, i) => fakerDocument(i + 1)).filter(
      (d) => Array.isArray(d.history) && d.history.length > 1,
    );
    expect(withHistory.length).toBeGreaterThan(0);
    for (const d of withHistory) {
      const revisions = (d.history as { revision: number }[]).map((e) => e.revision);
      expect(revisions).toEqual([...revisions].sort((a, b) => a - b));
      expect(Math.max(...revisions)).toBeLessThanOrEqual(((d.metadata as { revision?: number }).revision ?? 1) as number);
    }
  });

  it('a traversal path that does not escape, and a secret that is a reference', () => {
    const t = sample<{ profile: { spec: { context: { files: { path: string }[] } } }; index: number }>('traversal');
    const benign = structuredClone(t);
    benign.profile.spec.context.files[benign.index]!.path = 'src/..';
    expect(propertyByName('traversal')!.malformed(benign)).toMatch(/does not escape/);
    const s = sample<{ profile: { spec: { tools: { mcp_servers: Record<string, Record<string, string>>[] } } }; pointer: string }>(
      'secrets',
    );
    const [, , , , idx, place, key] = s.pointer.split('/');
    const ok = structuredClone(s);
    ok.profile.spec.tools.mcp_servers[Number(idx)]![place!]![key!] = '${API_KEY}';
    expect(propertyByName('secrets')!.malformed(ok)).toMatch(/not a literal/);
  });

  it('an invalid-instantiate mutation that leaves the profile valid', () => {
    const input = sample<{ profile: Record<string, unknown>; control: Record<string, unknown> }>('invalid-instantiate');
    expect(propertyByName('invalid-instantiate')!.malformed({ ...input, profile: input.control })).toMatch(/left the profile valid/);
  });
});
