/**
 * Catalogue cases of the prompt's assembly order (SPEC §3.2, L1-I1): every class of a dimension L1-I1
 * files whose values write the role alone (`profile:/spec/role`) and that no hand-written case
 * observes (the L1-I1 cases of suites/level-1/prompt-order.ts judge the others). Each value is the
 * minimal profile with the class's role; its prompt is read as the hand-written cases read one
 * (checkSectionMap: the map agrees with the text, every text the role writes lies in a section of
 * its kind, and the sections follow the spec model's order, spec/semantics/prompt-order.ts). A list
 * written empty needs no section; the persona is not looked for, since it may be rendered in the
 * harness's idiom or not at all. Every value is judged before the verdict, and the classes failing
 * are noted.
 */
import type { Dimension, Sample } from '../../spec/semantics/catalogue-model.js';
import { fail } from '../kit/assert.js';
import { CheckFailure } from '../kit/errors.js';
import type { CaseContext, CaseDef } from '../kit/types.js';
import { checkSectionMap, type ExpectedSection, instantiateSubject, permissivePolicy, removeProfiles } from '../support/index.js';
import type { CatalogueCase } from './contract.js';
import { classSides, generatedProfile, profileFrom, valuesOn } from './samples.js';

const ROLE = '/spec/role';

/** Does every value of the sample write the role and nothing else? */
const roleOnly = (sample: Sample): boolean =>
  valuesOn(sample, 'profile').every(([pointer]) => pointer === ROLE || pointer.startsWith(`${ROLE}/`));

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/** The texts the role of a profile writes, by the section kind each must lie in (the persona aside). */
function expectedSections(doc: Record<string, unknown>): ExpectedSection[] {
  const role = (doc['spec'] as Record<string, unknown>)['role'] as Record<string, unknown>;
  const examples = Array.isArray(role['examples']) ? (role['examples'] as Array<Record<string, unknown>>) : [];
  const out: ExpectedSection[] = [
    { kind: 'instructions', texts: [String(role['instructions'])], mode: 'all' },
    { kind: 'objectives', texts: strings(role['objectives']), mode: 'all' },
    { kind: 'constraints', texts: strings(role['constraints']), mode: 'all' },
    { kind: 'examples', texts: examples.flatMap((e) => strings([e['input'], e['output']])), mode: 'all' },
  ];
  return out.filter((e) => e.texts.length > 0);
}

function promptCase(d: Dimension): CatalogueCase | undefined {
  const classes = d.classes.filter(
    (c) =>
      c.exclusion === undefined &&
      !c.schemaInvalid &&
      c.observedBy.length === 0 &&
      [...classSides(c)].every((s) => s === 'profile') &&
      c.values.every(roleOnly),
  );
  if (classes.length === 0) return undefined;
  const slug = d.id.replace(/[._]/g, '-');
  const def: CaseDef = {
    id: `L1-I1/catalogue-${slug}`,
    requirements: ['L1-I1'],
    clauses: ['L1-I1.order'],
    title: `${d.title}: every catalogue class writing the role alone, its sections in SPEC §3.2 order with truthful byte ranges (${classes.length} classes)`,
    expectation: { classes: classes.map((c) => ({ id: c.id, predicts: c.predicts })) },
    async run(ctx: CaseContext) {
      const wrong: Array<{ classId: string; failure: CheckFailure }> = [];
      let n = 0;
      for (const c of classes) {
        for (const sample of c.values) {
          const doc = profileFrom(`cat-${slug}-${n++}`.slice(0, 64), sample);
          const path = generatedProfile(ctx, doc);
          const session = await instantiateSubject(ctx, path, permissivePolicy());
          removeProfiles([path]);
          try {
            checkSectionMap(session.prompt, expectedSections(doc));
          } catch (e) {
            if (!(e instanceof CheckFailure)) throw e;
            wrong.push({ classId: c.id, failure: e });
          }
        }
      }
      const first = wrong[0];
      if (first === undefined) return;
      ctx.note(
        'failing_classes',
        wrong.map((w) => w.classId),
      );
      fail(`catalogue class ${first.classId}: ${first.failure.message}`, first.failure.expected, first.failure.observed);
    },
  };
  return { def, classes: classes.map((c) => c.id) };
}

/** The prompt-order case of a dimension L1-I1 files. */
export function promptCases(d: Dimension): CatalogueCase[] {
  if (!d.requirements.includes('L1-I1')) return [];
  const c = promptCase(d);
  return c ? [c] : [];
}
