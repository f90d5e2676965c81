/**
 * The rendered prompt's section map, verified against the text before anything is judged from it:
 * an adapter's map is a claim, and a claim that does not match the text proves nothing.
 */
import type { Result } from '../../protocol/messages.js';
import { type OrderedSectionKind, orderViolations, PROMPT_ORDER } from '../../spec/semantics/index.js';
import { expectTrue, fail } from '../kit/assert.js';

type Instantiated = Extract<Result<'instantiate'>, { status: 'instantiated' }>;
export type Prompt = Instantiated['prompt'];

export interface MappedSection {
  index: number;
  kind: string;
  start: number;
  end: number;
  trusted: boolean;
  text: string;
}

/**
 * The text of a section, sliced by its UTF-8 byte offsets [start, end), without judging the map:
 * for cases whose requirement is not the map itself (L1-I1 and L2-S1/S2 judge it, via mapPrompt).
 */
export function sectionText(text: string, section: { start: number; end: number }): string {
  return Buffer.from(text, 'utf8').subarray(section.start, section.end).toString('utf8');
}

/** Check the map (byte ranges in bounds, on character boundaries, in order, non-overlapping) and slice it. */
export function mapPrompt(prompt: Prompt): MappedSection[] {
  const bytes = Buffer.from(prompt.text, 'utf8');
  const out: MappedSection[] = [];
  let prevEnd = 0;
  prompt.sections.forEach((s, index) => {
    const where = { index, kind: s.kind, start: s.start, end: s.end, textBytes: bytes.length };
    if (!(s.start >= 0 && s.start <= s.end && s.end <= bytes.length))
      fail('prompt section range outside the text', 'start <= end <= text bytes', where);
    if (s.start < prevEnd) fail('prompt sections overlap or are out of text order', { start: `>= ${prevEnd}` }, where);
    const slice = bytes.subarray(s.start, s.end);
    const text = slice.toString('utf8');
    // A range that splits a UTF-8 sequence decodes to U+FFFD and does not round-trip.
    if (!Buffer.from(text, 'utf8').equals(slice))
      fail('prompt section range splits a UTF-8 character', 'ranges on character boundaries', where);
    prevEnd = s.end;
    out.push({ index, kind: s.kind, start: s.start, end: s.end, trusted: s.trusted, text });
  });
  return out;
}

/** The texts of the fields of one section kind, and how many of them must lie in sections of that kind. */
export interface ExpectedSection {
  kind: OrderedSectionKind;
  texts: string[];
  /** all: every text must lie in sections of this kind; any: at least one (persona may be rendered in the harness's idiom). */
  mode: 'all' | 'any';
}

/**
 * L1-I1's reading of a rendered prompt: the map agrees with the text (mapPrompt), each expected field's
 * text lies in a section of its kind, and the sections the map reports follow the spec model's order
 * (spec/semantics/prompt-order.ts orderViolations; harness sections may sit anywhere).
 */
export function checkSectionMap(prompt: Prompt, expected: readonly ExpectedSection[]): void {
  // The map itself: in text order, inside the text, non-overlapping, on character boundaries.
  const sections = mapPrompt(prompt);
  // Each expected field has a section of its kind that contains its text.
  for (const e of expected) {
    const ofKind = sections.filter((s) => s.kind === e.kind);
    if (ofKind.length === 0)
      fail(
        `no ${e.kind} section in the section map`,
        { kind: e.kind },
        sections.map((s) => s.kind),
      );
    const inKind = (t: string): boolean => ofKind.some((s) => s.text.includes(t));
    const found = e.texts.filter(inKind);
    const ok = e.mode === 'all' ? found.length === e.texts.length : found.length > 0;
    if (!ok) {
      fail(
        `the ${e.kind} section's byte range does not contain the ${e.kind} text`,
        { kind: e.kind, contains: e.mode === 'all' ? e.texts : `one of ${JSON.stringify(e.texts)}` },
        { sections: ofKind.map((s) => s.text.slice(0, 200)) },
      );
    }
  }
  // Normative order over the sections the map reports (harness insertions may sit anywhere).
  const [inverted] = orderViolations(sections.map((s) => s.kind));
  if (inverted) {
    fail(
      `section ${inverted.kinds[1]} comes after ${inverted.kinds[0]}, against SPEC §3.2`,
      Object.keys(PROMPT_ORDER),
      sections.map((s) => s.kind),
    );
  }
}

/** The one state section, or undefined when the prompt has none. Two state sections are a map error. */
function stateSection(sections: MappedSection[]): MappedSection | undefined {
  const found = sections.filter((s) => s.kind === 'state');
  expectTrue(found.length <= 1, 'the prompt map has more than one state section', { expected: 1, observed: found.length });
  return found[0];
}

export function requireStateSection(sections: MappedSection[]): MappedSection {
  const s = stateSection(sections);
  if (!s)
    fail(
      'the rendered prompt has no state section although the profile has state',
      { kind: 'state' },
      sections.map((x) => x.kind),
    );
  return s;
}

/**
 * Lines as a reader (or a model) would see them: LF, CRLF and a lone CR all end a line. A text
 * ending in a line break has no empty trailing line.
 */
export function lines(text: string): string[] {
  const parts = text.split(/\r\n|\r|\n/);
  if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  return parts;
}

export interface Delimited {
  open: string;
  close: string;
  body: string[];
}

/** First line, last line, and the lines between, of a state section. */
export function delimiters(section: MappedSection): Delimited {
  const ls = lines(section.text);
  if (ls.length < 2) fail('the state section has no separate opening and closing delimiter lines', { lines: '>= 2' }, ls.length);
  return { open: ls[0]!, close: ls[ls.length - 1]!, body: ls.slice(1, -1) };
}

/** UTF-8 byte ranges [start, end) of every occurrence of `needle` in the prompt text. */
export function occurrences(text: string, needle: string): Array<[number, number]> {
  const hay = Buffer.from(text, 'utf8');
  const n = Buffer.from(needle, 'utf8');
  const out: Array<[number, number]> = [];
  if (n.length === 0) return out;
  let i = hay.indexOf(n);
  while (i !== -1) {
    out.push([i, i + n.length]);
    i = hay.indexOf(n, i + 1);
  }
  return out;
}

export function inside(range: [number, number], s: MappedSection): boolean {
  return range[0] >= s.start && range[1] <= s.end;
}

/** Prompt text of every section except `state`, joined: what the profile's own material rendered to. */
export function promptWithoutState(s: Instantiated): string {
  const parts = s.prompt.sections.filter((x) => x.kind !== 'state').map((x) => sectionText(s.prompt.text, x));
  // A prompt without section offsets would make every marker look absent; fall back to the text
  // minus nothing, which can only make absence checks stricter.
  return parts.length > 0 ? parts.join('\n') : s.prompt.text;
}

/** Section kinds with their texts, state excluded (its delimiters may carry per-session nonces). */
export function sectionTexts(s: Instantiated): Array<{ kind: string; text: string }> {
  return s.prompt.sections.filter((x) => x.kind !== 'state').map((x) => ({ kind: x.kind, text: sectionText(s.prompt.text, x) }));
}
