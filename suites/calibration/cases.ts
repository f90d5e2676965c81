/**
 * The cases that own the legal forms calibration varies. Each is about its aspect (so the run's
 * accommodation of that aspect never touches it), sends the plain form, and when the harness
 * refuses it sends the accommodated twins, which differ from it by that form alone: a twin accepted
 * shows the refusal is for the form, and the case fails the ID the form belongs to, once, with both
 * answers as evidence. When no twin is accepted the refusal is not shown to be the form's, and the
 * case is inconclusive (another case judges a harness that refuses everything).
 *
 *   L1-P2               a profile that leaves optional metadata out (revision, updated_at): SPEC 3.1
 *                       gives revision a default, the schema requires neither, and L1-P2 is "MUST
 *                       validate every loaded document against agent-profile.schema.json"
 *   L2-A4               a delta without target.digest: "MUST verify target.digest when present";
 *                       a digest check of a delta that has none verifies something that is not there
 *   ADV-pointer-paths   an append at `/-`: SPEC 6.2 "`-` appends to an array" (no conformance ID)
 * The encoding a harness claims and refuses is L1-P1's, judged by L1-P1/claimed-encodings-accepted.
 */
import { fail } from '../kit/assert.js';
import type { Accommodation } from '../kit/accommodations.js';
import { accommodationsInScope } from '../kit/forms.js';
import type { CaseContext, CaseDef } from '../kit/types.js';
import { inconclusive } from '../support/index.js';
import { describeDeltaForm, describeProfileForm, type ProbeResult, probeDelta, probeProfile } from './probes.js';

interface Twin {
  form: string;
  result: ProbeResult;
}

/** Judge a plain form by its twins: pass when accepted, fail when a twin is, else inconclusive. */
async function judgeForm(
  ctx: CaseContext,
  what: string,
  plain: { form: string; probe: () => Promise<ProbeResult> },
  twins: { form: string; probe: () => Promise<ProbeResult> }[],
): Promise<void> {
  const first = await plain.probe();
  ctx.note('plain', { form: plain.form, evidence: first.evidence });
  if (first.accepted) return;
  const tried: Twin[] = [];
  for (const t of twins) {
    const result = await t.probe();
    tried.push({ form: t.form, result });
    if (result.accepted) {
      fail(
        `${what}: the harness refused it (${first.evidence}) and accepted the same input with ${t.form}`,
        { [plain.form]: 'accepted' },
        { [plain.form]: first.evidence, [t.form]: result.evidence },
      );
    }
  }
  inconclusive(
    `${what}: refused, and so was every other legal form of it, so the refusal is not shown to be the form's`,
    `${plain.form} refused: ${first.evidence}; ${tried.map((t) => `${t.form}: ${t.result.evidence}`).join('; ')}`,
  );
}

const optionalMetadata: CaseDef = {
  id: 'L1-P2/optional-metadata-may-be-absent',
  requirements: ['L1-P2'],
  clauses: ['L1-P2.validate'],
  title: 'A valid profile that leaves the optional metadata.revision and metadata.updated_at out validates and instantiates',
  about: ['optional-metadata'],
  expectation: { validate: { valid: true }, instantiate: 'instantiated', twins: 'the same profile with revision, updated_at or both' },
  async run(ctx) {
    const encoding = accommodationsInScope(['encoding']);
    const form = (fills: Accommodation[]): { form: string; probe: () => Promise<ProbeResult> } => {
      const f = [...encoding, ...fills];
      return {
        form: describeProfileForm(ctx, f),
        probe: () => probeProfile(ctx, f, `optional-metadata-${fills.length ? fills.join('-') : 'absent'}`),
      };
    };
    await judgeForm(ctx, 'a valid profile without metadata.revision and metadata.updated_at', form([]), [
      form(['metadata-revision']),
      form(['metadata-updated-at']),
      form(['metadata-revision', 'metadata-updated-at']),
    ]);
  },
};

/** A delta form with the run's accommodations of the other aspect and of the profile. */
function deltaForm(ctx: CaseContext, own: Accommodation[], other: 'append' | 'pin', dir: string) {
  const f = [...accommodationsInScope([other]), ...own];
  return {
    form: describeDeltaForm(f),
    probe: () => probeDelta(ctx, f, accommodationsInScope(['optional-metadata', 'encoding']), dir),
  };
}

const unpinned: CaseDef = {
  id: 'L2-A4/delta-without-digest-applied',
  requirements: ['L2-A4'],
  clauses: ['L2-A4.verify-digest'],
  title: 'A valid delta without target.digest is applied: the digest is verified when present, and it is absent',
  about: ['pin'],
  expectation: { outcome: 'applied', twins: 'the same delta pinned by the profile digest, or by the spec digest' },
  async run(ctx) {
    await judgeForm(ctx, 'a valid delta without target.digest', deltaForm(ctx, [], 'append', 'plain'), [
      deltaForm(ctx, ['pin-profile-digest'], 'append', 'profile-digest'),
      deltaForm(ctx, ['pin-spec-digest'], 'append', 'spec-digest'),
    ]);
  },
};

const appendDash: CaseDef = {
  id: 'ADV-pointer-paths/append-at-dash-applied',
  requirements: ['ADV-pointer-paths'],
  clauses: ['ADV-pointer-paths.json-pointer'],
  title: 'An entry added at /state/facts/- is appended: `-` appends to an array (SPEC 6.2)',
  about: ['append'],
  expectation: { outcome: 'applied', twins: 'the same entry added at the next index, or at id:<its id>' },
  async run(ctx) {
    await judgeForm(ctx, 'a valid delta appending at /state/facts/-', deltaForm(ctx, [], 'pin', 'dash'), [
      deltaForm(ctx, ['append-by-index'], 'pin', 'index'),
      deltaForm(ctx, ['append-by-id'], 'pin', 'id'),
    ]);
  },
};

/** The owning cases: Level 1's profile form, Level 2's delta forms. */
export const calibrationCases: CaseDef[] = [optionalMetadata, unpinned, appendDash];
