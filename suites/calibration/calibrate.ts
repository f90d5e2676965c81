/**
 * Calibration: before the cases, learn which legal forms the harness accepts where the spec allows
 * several, so that one refused form is judged once, by the case that owns it, and every other case
 * is built in a form the harness accepted (suites/kit/forms.ts).
 *
 * Two searches, each over the product of its aspects' forms, fewest accommodations first (the
 * plain form first of all), stopping at the first form accepted:
 *   a profile   the encoding (the claimed ones, in the working encoding's order) x the optional
 *               metadata (absent, revision given, updated_at given, both): validate + instantiate;
 *   a delta     the append pointer (`/-`, the next index, `id:<id>`) x the target pin (revision
 *               alone, the profile digest, the spec digest): one apply_delta, in the profile form
 *               found first.
 * A harness that accepts the plain forms costs three requests (validate, instantiate, one
 * apply_delta); a refused profile form adds one or two, a refused delta form one.
 * Calibration judges nothing: the owning cases (./cases.ts) do, with the same probes.
 */
import type { Accommodation } from '../kit/accommodations.js';
import type { CaseContext, Encoding } from '../kit/types.js';
import { workingEncoding } from '../support/index.js';
import { describeDeltaForm, describeProfileForm, type ProbeResult, probeDelta, probeProfile } from './probes.js';

interface CalibrationProbe {
  subject: 'profile' | 'delta';
  /** The form tried, in words. */
  form: string;
  /** Its accommodations (none: the plain form). */
  accommodations: Accommodation[];
  accepted: boolean;
  evidence: string;
}

/** What calibration learned (plain data: it travels in the RunConfig and is recorded in the run header). */
export interface Calibration {
  /** The accommodations every case not about their aspect takes. */
  accommodations: Accommodation[];
  /** Every form tried, in order, with what the adapter said. */
  probes: CalibrationProbe[];
  /** Requests sent. */
  requests: number;
  /** Set when the adapter failed during calibration (the run goes on with the plain forms). */
  error?: string;
}

/** Every combination of one form per aspect, fewest accommodations first, then in ladder order. */
export function formsInOrder(ladders: readonly (readonly (readonly Accommodation[])[])[]): Accommodation[][] {
  let all: { form: Accommodation[]; rank: number[] }[] = [{ form: [], rank: [] }];
  for (const ladder of ladders) all = all.flatMap((c) => ladder.map((step, i) => ({ form: [...c.form, ...step], rank: [...c.rank, i] })));
  const changes = (rank: number[]): number => rank.filter((i) => i > 0).length;
  return all
    .map((c, order) => ({ ...c, order }))
    .sort((a, b) => changes(a.rank) - changes(b.rank) || a.order - b.order)
    .map((c) => c.form);
}

const METADATA_FORMS: Accommodation[][] = [
  [],
  ['metadata-revision'],
  ['metadata-updated-at'],
  ['metadata-revision', 'metadata-updated-at'],
];
const APPEND_FORMS: Accommodation[][] = [[], ['append-by-index'], ['append-by-id']];
const PIN_FORMS: Accommodation[][] = [[], ['pin-profile-digest'], ['pin-spec-digest']];

/** The encodings a profile may be written in: the working one (no accommodation), then the other claimed ones. */
function encodingForms(ctx: CaseContext): Accommodation[][] {
  const first = workingEncoding(ctx.handshake, ['yaml', 'json', 'md']);
  const others = (['yaml', 'json', 'md'] as Encoding[]).filter((e) => e !== first && ctx.handshake.encodings.includes(e));
  return [[], ...others.map((e) => [`encoding-${e}` as Accommodation])];
}

async function search(
  subject: CalibrationProbe['subject'],
  forms: Accommodation[][],
  describe: (form: Accommodation[]) => string,
  probe: (form: Accommodation[], n: number) => Promise<ProbeResult>,
  out: Calibration,
): Promise<Accommodation[] | undefined> {
  for (const [n, form] of forms.entries()) {
    const r = await probe(form, n);
    out.requests += r.requests;
    out.probes.push({ subject, form: describe(form), accommodations: form, accepted: r.accepted, evidence: r.evidence });
    if (r.accepted) return form;
  }
  return undefined;
}

/**
 * Learn the accommodations. Levels below 2 have no deltas to calibrate. A form no search accepts
 * leaves its aspect plain: the cases then meet the refusal themselves and end as the refusal rule
 * decides (suites/support/refusal.ts).
 */
export async function calibrate(ctx: CaseContext, level: 1 | 2 | 3): Promise<Calibration> {
  const out: Calibration = { accommodations: [], probes: [], requests: 0 };
  // An adapter that fails a search (it declines apply_delta, say) keeps what the other one learned.
  const searching = async (body: () => Promise<void>): Promise<void> => {
    try {
      await body();
    } catch (err) {
      out.error = `${out.error ? `${out.error}; ` : ''}${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}`;
    }
  };
  let profileForm: Accommodation[] = [];
  await searching(async () => {
    profileForm =
      (await search(
        'profile',
        formsInOrder([encodingForms(ctx), METADATA_FORMS]),
        (form) => describeProfileForm(ctx, form),
        (form, n) => probeProfile(ctx, form, `calibrate-profile-${n}`),
        out,
      )) ?? [];
    out.accommodations.push(...profileForm);
  });
  if (level >= 2)
    await searching(async () => {
      const deltaForm = await search(
        'delta',
        formsInOrder([APPEND_FORMS, PIN_FORMS]),
        describeDeltaForm,
        (form, n) => probeDelta(ctx, form, profileForm, `calibrate-delta-${n}`),
        out,
      );
      out.accommodations.push(...(deltaForm ?? []));
    });
  return out;
}
