import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fromRoot } from '../../spec/package-root.js';
import { ADVISORY_IDS, clausesOf, idOfClause } from '../../spec/requirements.js';
import { isMustSentence, SENTENCES, sentenceMapping } from '../../spec/sentences.js';
import { allCases } from '../../suites/index.js';
import { normativeSentences, readSpecFile, SPEC_FILES, specDirCandidates } from '../support/normative-sentences.js';

const TAG = { 'SPEC.md': 'SPEC', 'security.md': 'SEC', 'conformance.md': 'CONF' } as const;

/** The number or letter that starts a heading: `2.1`, `T3`, `A` (Appendix A), `8`. */
function sectionNumber(section: string): string | undefined {
  return /^(?:Appendix )?([A-Z]?\d+(?:\.\d+)*|[A-Z])\b/.exec(section)?.[1];
}

// The CI check, on the manifest alone: it runs everywhere, spec files or not.
describe('the sentence manifest', () => {
  const cases = new Map(allCases().map((c) => [c.id, c]));

  it('maps or excludes every MUST sentence (a SHOULD may stay unchecked)', () => {
    const open = SENTENCES.filter((s) => isMustSentence(s) && sentenceMapping(s) === 'unchecked').map((s) => s.id);
    expect(open).toEqual([]);
  });

  it('names only cases that exist, each observing one of the sentence clauses', () => {
    const problems = SENTENCES.flatMap((s) =>
      (s.cases ?? []).flatMap((id) => {
        const c = cases.get(id);
        if (!c) return [`${s.id} names case ${id}, which does not exist`];
        return c.clauses.some((q) => s.clauses.includes(q)) ? [] : [`${s.id} names case ${id}, which observes none of its clauses`];
      }),
    );
    expect(problems).toEqual([]);
  });

  it('gives every sentence that is observed a case to observe it', () => {
    const unobserved = SENTENCES.filter((s) => sentenceMapping(s) === 'clauses' || sentenceMapping(s) === 'advisory').filter((s) => {
      const clauses = new Set<string>([...s.clauses, ...(s.advisory ? clausesOf(s.advisory).map((q) => q.id) : [])]);
      return ![...cases.values()].some((c) => c.clauses.some((q) => clauses.has(q)));
    });
    expect(unobserved.map((s) => s.id)).toEqual([]);
  });

  it('keeps an exclusion apart from a mapping, with a reason', () => {
    const both = SENTENCES.filter((s) => s.excluded !== undefined && (s.clauses.length > 0 || s.advisory || s.cases));
    expect(both.map((s) => s.id)).toEqual([]);
    expect(SENTENCES.filter((s) => s.excluded !== undefined && s.excluded.length < 40).map((s) => s.id)).toEqual([]);
    expect(SENTENCES.filter((s) => s.advisory !== undefined && !ADVISORY_IDS.has(s.advisory)).map((s) => s.id)).toEqual([]);
    // A clause is typed; its ID must still be one the requirement has (clausesOf is the manifest).
    const stray = SENTENCES.flatMap((s) => s.clauses.filter((q) => !clausesOf(idOfClause(q)).some((c) => c.id === q)));
    expect(stray).toEqual([]);
  });

  it('derives every ID from file, section number and the ordinal within the section', () => {
    const seen = new Map<string, number>();
    const wrong: string[] = [];
    for (const s of SENTENCES) {
      const key = `${TAG[s.source]}-${sectionNumber(s.section)}`;
      const n = (seen.get(key) ?? 0) + 1;
      seen.set(key, n);
      if (s.id !== `${key}-${n}`) wrong.push(`${s.id} should be ${key}-${n}`);
    }
    expect(wrong).toEqual([]);
    expect(new Set(SENTENCES.map((s) => s.id)).size).toBe(SENTENCES.length);
  });
});

describe('the reader of normative sentences', () => {
  const md = [
    '## 9.9 Sample',
    'First sentence. A harness MUST do it; it SHOULD say so. Not normative.',
    '| `x` | no | See §7.1. A value MUST be dropped. |',
    '| --- | --- |',
    '**Rules.** A harness MUST:',
    '1. Do one thing.',
    '**Mitigation (MUST).** One. Two.',
    '```yaml',
    'a: 1   # REQUIRED',
    'b: 2',
    '```',
    '> A profile MAY narrow. It MUST NOT widen.',
    'Lower-case must is no key word.',
  ].join('\n');

  it('splits at full stops, keeps table rows, run-in labels and keyword code lines whole, and skips the rest', () => {
    expect(normativeSentences('SPEC.md', md).map((s) => [s.section, s.text])).toEqual([
      ['9.9 Sample', 'A harness MUST do it; it SHOULD say so.'],
      ['9.9 Sample', '`x` | no | See §7.1. A value MUST be dropped.'],
      ['9.9 Sample', '**Rules.** A harness MUST:'],
      ['9.9 Sample', '**Mitigation (MUST).** One. Two.'],
      ['9.9 Sample', 'a: 1   # REQUIRED'],
      ['9.9 Sample', 'It MUST NOT widen.'],
    ]);
  });
});

// Against the spec prose itself, where it is: OAP_SPEC_DIR, or shared/oap-1.0.1/spec beside the checkout.
const specDir = specDirCandidates(fromRoot('.')).find((d) => SPEC_FILES.every((f) => existsSync(join(d, f))));

describe.skipIf(specDir === undefined)(
  `the sentence manifest against the spec files${specDir === undefined ? ' (skipped: no spec files; set OAP_SPEC_DIR to the folder holding SPEC.md, security.md and conformance.md)' : ''}`,
  () => {
    it.each(SPEC_FILES)('quotes every normative sentence of %s, in order, verbatim, under its heading', (file) => {
      const text = readSpecFile(specDir!, file);
      const found = normativeSentences(file, text).map((s) => `${s.section} | ${s.text}`);
      const manifest = SENTENCES.filter((s) => s.source === file).map((s) => `${s.section} | ${s.text}`);
      expect(manifest).toEqual(found);
      expect(SENTENCES.filter((s) => s.source === file && !text.includes(s.text)).map((s) => s.id)).toEqual([]);
      expect(SENTENCES.filter((s) => s.source === file && !text.includes(`# ${s.section}`)).map((s) => s.id)).toEqual([]);
    });
  },
);
