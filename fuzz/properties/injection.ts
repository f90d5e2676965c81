/**
 * State is untrusted content (SPEC §3.9, §7.4; security.md T4):
 * - L2-S2: payload text stays inside untrusted sections, and the render's own closing delimiter
 *   line occurs exactly once in the state section, as its last line, and nowhere mid-line inside
 *   it (corpus and adaptive attacks);
 * - L2-S3: the effective contract with hostile state equals the one without state;
 * - L2-S5: `${{ vars.KEY }}` inside state is left literal (no value appears, no undefined-variable
 *   error is raised because of state).
 */
import fc from 'fast-check';
import type { HarnessPolicyT, InstantiatedT } from '../../protocol/messages.js';
import { isDeepStrictEqual } from 'node:util';
import type { Encoding } from '../../suites/kit/types.js';
import {
  buildState,
  clampState,
  delimiterAttackArb,
  fillDelimiters,
  includedId,
  injectionCorpus,
  markerArb,
  placementText,
  slotsArb,
  statePlacementProblem,
  type Delimiters,
  type Placement,
} from '../gen/injection.js';
import { encodingArb, policyArb, specRequestArb } from '../gen/narrowing.js';
import { firstUndefined, instantiateIn, rejectedBy, undefinedBySpec, type Doc } from '../harness.js';
import { HOLDS, malformedInput, violated, type ExecEnv, type FuzzProperty, type Verdict, type Violation } from './types.js';
import { closerBreakouts } from '../../spec/semantics/index.js';
import { lines as promptLines, minimalProfile, permissivePolicy, sectionText } from '../../suites/support/index.js';

export interface InjectionInput {
  profile: Doc;
  policy: HarnessPolicyT;
  encoding: Encoding;
  /** The state under test; may hold `{{OPEN}}`/`{{CLOSE:variant}}` placeholders. */
  state: Record<string, unknown>;
  placements: Placement[];
  marker: string;
}

const FALLBACK_DELIMITERS: Delimiters = { open: '<state>', close: '</state>' };

/** The delimiter lines this adapter renders around benign state (learned once per case). */
async function learnDelimiters(env: ExecEnv, input: InjectionInput): Promise<Delimiters> {
  const memo = env.memo.get('delimiters') as Delimiters | undefined;
  if (memo) return memo;
  const benign = { ...input.profile, state: buildState([{ field: 'summary', text: 'Benign summary used to learn the delimiters.' }]) };
  const { outcome } = await instantiateIn(env, benign, input.policy, { encoding: input.encoding });
  let learned = FALLBACK_DELIMITERS;
  if (outcome.status === 'instantiated') {
    const s = outcome.prompt.sections.find((x) => x.kind === 'state');
    if (s) {
      const lines = promptLines(sectionText(outcome.prompt.text, s));
      if (lines.length >= 2) learned = { open: lines[0]!, close: lines[lines.length - 1]! };
    }
  }
  env.memo.set('delimiters', learned);
  return learned;
}

const trimLine = (l: string): string => l.replace(/^[ \t\r]+|[ \t\r]+$/g, '');

/** Every place `marker` occurs outside an untrusted section, and every broken state delimiter. */
function containmentViolations(prompt: InstantiatedT['prompt'], marker: string): Violation[] {
  const out: Violation[] = [];
  const buf = Buffer.from(prompt.text, 'utf8');
  const needle = Buffer.from(marker, 'utf8');
  for (let i = buf.indexOf(needle); i !== -1; i = buf.indexOf(needle, i + 1)) {
    const s = prompt.sections.find((x) => x.start <= i && i + needle.length <= x.end);
    if (!s || s.trusted) {
      const where = s ? `the trusted ${s.kind} section` : 'no section';
      out.push({
        message: `state payload text (marker ${marker}) appears at byte ${i}, in ${where}`,
        expected: { payload_in: 'untrusted sections only' },
        observed: { byte: i, section: s ?? null },
      });
    }
  }
  for (const s of prompt.sections.filter((x) => x.kind === 'state')) {
    if (s.trusted) out.push({ message: 'the state section is marked trusted', expected: { trusted: false }, observed: { section: s } });
    // A lone CR ends a line for a reader (or a model) as much as LF does: split the way L2-S2 does.
    const lines = promptLines(sectionText(prompt.text, s));
    const close = trimLine(lines[lines.length - 1] ?? '');
    const hits = lines
      .map((l, n) => [trimLine(l), n] as const)
      .filter(([l]) => l === close)
      .map(([, n]) => n);
    if (close === '' || hits.length !== 1) {
      out.push({
        message: `the state section's closing delimiter line ${JSON.stringify(close)} occurs ${hits.length} times in the section (lines ${hits.join(', ')}); state text can forge the end of the untrusted block`,
        expected: { closing_delimiter_occurrences: 1 },
        observed: { closing_delimiter: close, lines: hits, line_count: lines.length },
      });
    }
    // Mid-line too (spec/semantics delimiting): a JSON-escaped line hides every line break, not the
    // closer. Reported only when the line check above found nothing, so one defect is one violation.
    const midLine = closerBreakouts(sectionText(prompt.text, s));
    if (close !== '' && hits.length === 1 && midLine.length > 0) {
      out.push({
        message: `the state section's closing delimiter ${JSON.stringify(close)} occurs ${midLine.length} time(s) inside the state content; state text can end the untrusted block mid-line`,
        expected: { closer_inside_content: 0 },
        observed: { closing_delimiter: close, found: midLine.map((b) => b.found) },
      });
    }
  }
  return out;
}

function injectionArb(payloads: fc.Arbitrary<string>, random: boolean): fc.Arbitrary<InjectionInput> {
  return fc
    .record({
      marker: markerArb,
      slots: slotsArb(fc.record({ payload: payloads })),
      spec: random
        ? specRequestArb()
        : fc.constant({ tools: { allow: ['read', 'search'] }, permissions: { shell: 'ask' as const, network: 'ask' as const } }),
      policy: random ? policyArb() : fc.constant(permissivePolicy()),
      encoding: encodingArb,
    })
    .map(({ marker, slots, spec, policy, encoding }) => {
      const placements: Placement[] = slots.map((s, i) => ({ field: s.field, text: placementText(marker, i, `\n${s.payload}`) }));
      return { profile: minimalProfile('fz-main', spec), policy, encoding, state: buildState(placements), placements, marker };
    });
}

const corpusPayload = (): fc.Arbitrary<string> => fc.constantFrom(...injectionCorpus().payloads);

/**
 * What every state input claims: a valid profile, one placement per field, unique entry ids, and a
 * state that stays valid once its delimiter placeholders are filled (here with the fallback
 * delimiters; execution re-checks with the adapter's own) and clamped.
 */
function injectionMalformed(input: InjectionInput): string | undefined {
  const placed = statePlacementProblem(input.state, input.placements);
  if (placed) return placed;
  return firstUndefined(
    [input.profile, { ...input.profile, state: clampState(fillDelimiters(input.state, FALLBACK_DELIMITERS)) }],
    'the generated profile',
  );
}

/** Render `input` with its state, delimiter placeholders filled with the adapter's own delimiters. */
async function renderWithState(env: ExecEnv, input: InjectionInput): Promise<{ verdict?: Verdict; inst?: InstantiatedT; doc: Doc }> {
  const d = await learnDelimiters(env, input);
  const doc = { ...input.profile, state: clampState(fillDelimiters(input.state, d)) };
  const why = undefinedBySpec(doc);
  if (why) return { verdict: malformedInput(`the state with the adapter's delimiters filled in is refused by the oracle: ${why}`), doc };
  const { outcome } = await instantiateIn(env, doc, input.policy, { encoding: input.encoding });
  if (outcome.status === 'rejected') return { verdict: rejectedBy('instantiate with state', outcome.errors), doc };
  return { inst: outcome, doc };
}

async function judgeContainment(env: ExecEnv, input: InjectionInput): Promise<Verdict> {
  const r = await renderWithState(env, input);
  if (r.verdict) return r.verdict;
  const v = containmentViolations(r.inst!.prompt, input.marker);
  return v.length ? violated(v[0]!.message, v[0]!.expected, v[0]!.observed) : HOLDS;
}

export const injectionProperty: FuzzProperty<InjectionInput> = {
  name: 'injection',
  requirement: 'L2-S2',
  clauses: ['L2-S2.untrusted', 'L2-S2.delimited'],
  title: 'Corpus payloads in every state field stay inside the untrusted, delimited state section',
  weight: 2,
  runsPerCase: 25,
  arbitrary: () => injectionArb(corpusPayload(), false),
  malformed: injectionMalformed,
  execute: judgeContainment,
};

export const delimiterProperty: FuzzProperty<InjectionInput> = {
  name: 'delimiter',
  requirement: 'L2-S2',
  clauses: ['L2-S2.delimited'],
  title: "Adaptive attack: the adapter's own closing delimiter, and variants of it, cannot end the state block",
  weight: 2,
  runsPerCase: 25,
  arbitrary: () => injectionArb(delimiterAttackArb, false),
  malformed: injectionMalformed,
  execute: judgeContainment,
};

export const authorityProperty: FuzzProperty<InjectionInput> = {
  name: 'authority',
  requirement: 'L2-S3',
  clauses: ['L2-S3.tool-access', 'L2-S3.permissions'],
  title: 'Instruction-like state changes nothing in the effective contract',
  weight: 2,
  runsPerCase: 20,
  // Mostly the fixed scenario (read/search allowed, shell ask, permissive policy): state that
  // "grants" a tool or permission has room to change something there; random contracts dilute it.
  arbitrary: () =>
    fc.oneof({ arbitrary: injectionArb(corpusPayload(), false), weight: 3 }, { arbitrary: injectionArb(corpusPayload(), true), weight: 1 }),
  malformed: injectionMalformed,
  async execute(env, input) {
    const base = await instantiateIn(env, input.profile, input.policy, { encoding: input.encoding });
    if (base.outcome.status === 'rejected') return rejectedBy('instantiate without state', base.outcome.errors);
    const r = await renderWithState(env, input);
    if (r.verdict) return r.verdict;
    const want = base.outcome.effective;
    const got = r.inst!.effective;
    if (isDeepStrictEqual(got, want)) return HOLDS;
    const keys = (Object.keys(want) as (keyof typeof want)[]).filter((k) => !isDeepStrictEqual(got[k], want[k]));
    return violated(
      `state text changed the effective contract (${keys.join(', ')}) compared with the same profile without state`,
      Object.fromEntries(keys.map((k) => [k, want[k]])),
      Object.fromEntries(keys.map((k) => [k, got[k]])),
    );
  },
};

// ---------------------------------------------------------------- L2-S5

const VAR_TOKENS = [
  '${{ vars.ROLE }}',
  '${{vars.ROLE}}',
  '${{  vars.ROLE  }}',
  '${{ vars.UNDEFINED_FZ }}',
  'prefix-${{ vars.ROLE }}-suffix',
];
/** Fields whose text a harness renders as the entry's body, so a literal token must be visible. */
const BODY_FIELDS = new Set(['summary', 'facts.text', 'preferences.text', 'glossary.definition', 'open_threads.title']);

function varsArb(): fc.Arbitrary<InjectionInput> {
  return fc
    .record({
      marker: markerArb,
      slots: slotsArb(fc.record({ token: fc.constantFrom(...VAR_TOKENS) })),
      encoding: encodingArb,
    })
    .map(({ marker, slots, encoding }) => {
      const placements: Placement[] = slots.map((s, i) => ({
        field: s.field,
        text: placementText(marker, i, ` remember ${s.token} here`),
      }));
      const profile = minimalProfile('fz-main', {
        role: { instructions: 'You are ${{ vars.ROLE }}.', constraints: ['Act as ${{ vars.ROLE }} only.'] },
        context: { variables: { ROLE: `VALUE${marker}` } },
      });
      return { profile, policy: permissivePolicy(), encoding, state: buildState(placements), placements, marker };
    });
}

export const varsProperty: FuzzProperty<InjectionInput> = {
  name: 'vars',
  requirement: 'L2-S5',
  clauses: ['L2-S5.no-substitution'],
  title: '${{ vars.KEY }} inside state is never substituted',
  weight: 1,
  runsPerCase: 15,
  arbitrary: varsArb,
  malformed(input) {
    const bad = statePlacementProblem(input.state, input.placements);
    if (bad) return bad;
    const untokened = input.placements.find((p) => !VAR_TOKENS.some((t) => p.text.includes(t)));
    if (untokened) return `the placement in ${untokened.field} carries no \${{ vars }} token`;
    return firstUndefined([input.profile, { ...input.profile, state: input.state }], 'the generated profile');
  },
  async execute(env, input) {
    const doc = { ...input.profile, state: input.state };
    const { outcome } = await instantiateIn(env, doc, input.policy, { encoding: input.encoding });
    if (outcome.status === 'rejected') {
      // Only an undefined-variable error is evidence that state was substituted; any other refusal
      // of the stateful profile says nothing about substitution.
      if (!outcome.errors.some((e) => e.category === 'variable-undefined')) return rejectedBy('instantiate with state', outcome.errors);
      const base = await instantiateIn(env, input.profile, input.policy, { encoding: input.encoding });
      if (base.outcome.status === 'rejected') return rejectedBy('instantiate without state', base.outcome.errors);
      return violated(
        `the profile instantiates without state but is rejected (variable-undefined) once state holds \${{ vars }} tokens: substitution was attempted inside state`,
        { status: 'instantiated' },
        { status: 'rejected', errors: outcome.errors },
      );
    }
    const value = `VALUE${input.marker}`;
    const sections = outcome.prompt.sections.filter((s) => s.kind === 'state');
    const stateText = sections.map((s) => sectionText(outcome.prompt.text, s)).join('\n');
    if (stateText.includes(value)) {
      return violated(
        `the value of vars.ROLE (${value}) appears in the state section: \${{ vars.ROLE }} was substituted inside state`,
        { state_contains: '${{ vars.ROLE }} literally' },
        { state_contains: value },
      );
    }
    for (const [i, p] of input.placements.entries()) {
      if (!BODY_FIELDS.has(p.field) || !outcome.prompt.state.included.includes(includedId(input.placements, i))) continue;
      const key = p.text.includes('UNDEFINED_FZ') ? 'vars.UNDEFINED_FZ' : 'vars.ROLE';
      if (!stateText.includes(key)) {
        return violated(
          `state entry ${includedId(input.placements, i)} was injected but its literal "${key}" token is gone: the token was substituted or stripped`,
          { state_contains: key },
          { state_section: stateText.slice(0, 400) },
        );
      }
    }
    return HOLDS;
  },
};
