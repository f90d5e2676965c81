/**
 * L1-P1..P6: encodings, schema validation, versions, kinds and error pointers (conformance.md §2.1).
 *
 * Every refusal case carries a positive control (a valid profile that must validate and
 * instantiate) so that an adapter which refuses everything passes none of them.
 */
import { basename } from 'node:path';
import type { CaseContext, CaseDef, Encoding } from '../kit/types.js';
import { expectEqual, expectTrue, fail } from '../kit/assert.js';
import { type FixtureOf, fixtureBytes, fixtureDocument, fixturesFor } from '../../fixtures/index.js';
import { soleClause } from '../../spec/requirements.js';
import { pointerMatches } from './support.js';
import { serializeDocument } from '../kit/workspace.js';
import {
  briefIssues,
  instantiateName,
  instantiatePath,
  rejectionCause,
  minimalProfile,
  mustInstantiate,
  profileFileName,
  requireObservable,
  requireSession,
  workingEncoding,
  writeProfile,
  writeProjectProfile,
} from '../support/index.js';

/**
 * A valid profile the adapter must accept, in its working encoding. For L1-P2 accepting it is part
 * of the requirement (valid documents validate and instantiate, conformance.md 5.1), so a refusal
 * fails; for the version and kind cases it is a precondition (without it a refusal says nothing
 * about the version), so a refusal makes the case inconclusive and P2 judges it.
 */
async function positiveControl(ctx: CaseContext, name: string, role: 'own' | 'precondition'): Promise<void> {
  const doc = minimalProfile(name);
  const encoding = workingEncoding(ctx.handshake);
  const v = await ctx.adapter.call('validate', { document: { content: serializeDocument(doc, encoding), encoding } });
  if (role === 'precondition') {
    requireObservable(
      v.valid,
      `control: the valid profile ${name} was refused, so a refusal proves nothing`,
      rejectionCause('control profile (validate)', v.errors),
    );
    requireSession(await instantiatePath(ctx, writeProjectProfile(ctx, doc), undefined, { role: 'control' }), `control: ${name}`);
    return;
  }
  expectTrue(v.valid, `control: the valid profile ${name} must validate`, {
    expected: { valid: true },
    observed: { valid: v.valid, errors: briefIssues(v.errors) },
  });
  mustInstantiate(await instantiatePath(ctx, writeProjectProfile(ctx, doc), undefined, { role: 'control' }), `control: ${name}`);
}

/** A Level 1 fixture with its text as written (YAML) and the logical document the oracle reads. */
interface LoadedFixture extends FixtureOf<'level-1'> {
  text: string;
  doc: Record<string, unknown>;
}

/** The refusal fixtures whose own requirement (the first one listed) is `requirement`. */
function refusalFixtures(requirement: string): LoadedFixture[] {
  return fixturesFor('level-1', requirement)
    .filter((f) => f.requirements[0] === requirement)
    .map((f) => ({ ...f, text: fixtureBytes(f).toString('utf8'), doc: fixtureDocument(f) }));
}

/** The fixture as the adapter receives it: the file itself for YAML, otherwise the same logical document re-encoded. */
function fixtureContent(f: LoadedFixture, encoding: Encoding): string {
  return encoding === 'yaml' ? f.text : serializeDocument(f.doc, encoding);
}

function fixtureStem(f: LoadedFixture): string {
  return basename(f.file).replace(/\.agent\.yaml$/, '');
}

/** Validate the fixture by content and instantiate it by path; return both verdicts. */
async function submitFixture(ctx: CaseContext, f: LoadedFixture) {
  const encoding = workingEncoding(ctx.handshake);
  const validated = await ctx.adapter.call('validate', { document: { content: fixtureContent(f, encoding), encoding } });
  const path =
    encoding === 'yaml'
      ? ctx.workspace.writeFile(`${ctx.workspace.projectAgents}/${profileFileName(fixtureStem(f), 'yaml')}`, f.text)
      : writeProfile(ctx.workspace.projectAgents, f.doc, encoding, fixtureStem(f));
  const instantiated = await instantiatePath(ctx, path);
  return { validated, instantiated };
}

// ---------------------------------------------------------------- L1-P1

const p1Encodings: CaseDef = {
  id: 'L1-P1/claimed-encodings-accepted',
  requirements: ['L1-P1'],
  clauses: ['L1-P1.accept', 'L1-P1.document'],
  title: 'Every encoding named in the handshake validates and instantiates a valid profile',
  about: ['encoding'],
  expectation: { perClaimedEncoding: { valid: true, instantiate: 'instantiated' } },
  async run(ctx) {
    // The protocol makes the claim non-empty; the claim is the documentation P1 asks for.
    expectTrue(ctx.handshake.encodings.length >= 1, 'the handshake names at least one accepted encoding', {
      observed: ctx.handshake.encodings,
    });
    ctx.note('claimed', ctx.handshake.encodings);
    for (const encoding of ctx.handshake.encodings) {
      const name = `encoded-${encoding}`;
      // Non-ASCII text in the instructions so that a reader that mangles UTF-8 is noticed.
      const doc = minimalProfile(name, { role: { instructions: `You are ${name}. Résumé → naïve café ✓.` } });
      const v = await ctx.adapter.call('validate', { document: { content: serializeDocument(doc, encoding), encoding } });
      expectTrue(v.valid, `a valid profile in the claimed ${encoding} encoding must validate`, {
        expected: { encoding, valid: true },
        observed: { encoding, valid: v.valid, errors: briefIssues(v.errors) },
      });
      const path = writeProfile(ctx.workspace.projectAgents, doc, encoding, name);
      const out = await instantiatePath(ctx, path);
      const session = mustInstantiate(out, `the ${encoding} file ${basename(path)}`);
      expectEqual(session.session.name, name, `session name of the ${encoding} profile`);
    }
  },
};

// ---------------------------------------------------------------- L1-P2

function schemaRefusalCase(f: LoadedFixture): CaseDef {
  return {
    id: `${f.id}`,
    requirements: ['L1-P2'],
    clauses: ['L1-P2.validate', 'L1-P2.refuse-invalid'],
    title: `Schema-invalid document refused by validate and by instantiate (${fixtureStem(f)})`,
    fixtures: [f.id],
    expectation: { validate: { valid: false }, instantiate: 'rejected', category: `${f.expect.category} (recorded, not required)` },
    async run(ctx) {
      await positiveControl(ctx, 'p2-control', 'own');
      const { validated, instantiated } = await submitFixture(ctx, f);
      expectTrue(!validated.valid, 'validate must refuse a schema-invalid document', {
        expected: { valid: false },
        observed: { valid: validated.valid, errors: briefIssues(validated.errors) },
      });
      // The positive control and the fixture differ by the schema violation alone, so the refusal is
      // for it; which protocol category the adapter gives it is recorded, as for P3-P5.
      if (!validated.errors.some((e) => e.category === f.expect.category))
        ctx.note('category-differs', { expected: f.expect.category, observed: validated.errors.map((e) => e.category) });
      expectEqual(instantiated.status, 'rejected', 'instantiate of a schema-invalid document');
    },
  };
}

const p2ByName: CaseDef = {
  id: 'L1-P2/invalid-profile-in-root-not-instantiated',
  requirements: ['L1-P2'],
  clauses: ['L1-P2.refuse-invalid'],
  title: 'A schema-invalid profile found by discovery is not instantiated by name',
  expectation: { instantiate: 'rejected' },
  async run(ctx) {
    await positiveControl(ctx, 'p2-control', 'own');
    const doc = minimalProfile('invalid-in-root', { permissions: { shell: 'always' } });
    writeProjectProfile(ctx, doc);
    const out = await instantiateName(ctx, 'invalid-in-root');
    expectEqual(out.status, 'rejected', 'instantiate by name of a profile whose permissions.shell is not a decision');
  },
};

// ---------------------------------------------------------------- L1-P3 / P4 / P5

function refusalCase(f: LoadedFixture, title: string): CaseDef {
  return {
    id: f.id,
    requirements: [f.requirements[0]!],
    clauses: [soleClause(f.requirements[0]!)],
    title,
    fixtures: [f.id],
    expectation: { validate: { valid: false }, instantiate: 'rejected' },
    async run(ctx) {
      await positiveControl(ctx, 'version-control', 'precondition');
      const { validated, instantiated } = await submitFixture(ctx, f);
      ctx.note('categories', {
        validate: briefIssues(validated.errors),
        instantiate: instantiated.status === 'rejected' ? briefIssues(instantiated.errors) : [],
      });
      expectTrue(!validated.valid, `validate must refuse oap "${String(f.doc['oap'])}" kind "${String(f.doc['kind'])}"`, {
        expected: { valid: false },
        observed: { valid: validated.valid },
      });
      expectEqual(instantiated.status, 'rejected', 'instantiate');
      if (f.expect.categories && !validated.errors.some((e) => f.expect.categories!.includes(e.category))) {
        // Naming the rule is good practice but not what P3-P5 require; recorded, not judged.
        ctx.note('category-differs', { expected: f.expect.categories, observed: validated.errors.map((e) => e.category) });
      }
    },
  };
}

// ---------------------------------------------------------------- L1-P6

function pointerCase(f: LoadedFixture): CaseDef {
  const stem = f.id.slice(f.id.indexOf('/') + 1);
  return {
    id: `L1-P6/${stem}`,
    requirements: ['L1-P6'],
    clauses: ['L1-P6.pointer'],
    title: `Validation error points at ${f.expect.pointer || '(document)'} (${stem})`,
    fixtures: [f.id],
    expectation: { pointer: f.expect.pointer, parentAccepted: f.expect.parentAccepted },
    async run(ctx) {
      const encoding = workingEncoding(ctx.handshake);
      const v = await ctx.adapter.call('validate', { document: { content: fixtureContent(f, encoding), encoding } });
      // Whether the document is refused at all is P2-P5's question; P6 judges how a refusal is reported.
      requireObservable(!v.valid, `the adapter did not refuse ${f.id}; its refusal case judges that`, `validate reported ${f.id} valid`);
      ctx.note(
        'pointers',
        v.errors.map((e) => e.pointer),
      );
      const hit = v.errors.some((e) => pointerMatches(e.pointer, f.expect.pointer, f.expect.parentAccepted));
      if (!hit) {
        fail(
          `no validation error points at ${f.expect.pointer || '(document)'}`,
          { pointer: f.expect.pointer, parentAccepted: f.expect.parentAccepted },
          briefIssues(v.errors),
        );
      }
    },
  };
}

const schemaFixtures = refusalFixtures('L1-P2');

export const parsingCases: CaseDef[] = [
  p1Encodings,
  ...schemaFixtures.map(schemaRefusalCase),
  p2ByName,
  ...refusalFixtures('L1-P3').map((f) => refusalCase(f, `Unimplemented major version "${String(f.doc['oap'])}" rejected`)),
  ...refusalFixtures('L1-P4').map((f) => refusalCase(f, `Higher minor version "${String(f.doc['oap'])}" rejected`)),
  ...refusalFixtures('L1-P5').map((f) => refusalCase(f, `Unknown kind "${String(f.doc['kind'])}" rejected`)),
  ...[...schemaFixtures, ...refusalFixtures('L1-P3'), ...refusalFixtures('L1-P4'), ...refusalFixtures('L1-P5')].map(pointerCase),
];
