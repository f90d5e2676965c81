/**
 * Reads the normative sentences out of the OAP spec files (SPEC.md, security.md, conformance.md),
 * so a test can hold spec/sentences.ts to them: every sentence carrying MUST, MUST NOT, SHALL,
 * REQUIRED, SHOULD or SHOULD NOT (upper case only, RFC 8174) is found, with its section and its
 * exact text. The spec prose is not in the repository; this runs where the files are.
 *
 * What a sentence is, so the manifest and this reader agree:
 * - In a fenced code block, a line carrying a keyword is one unit, as written (the top-level
 *   structure of SPEC §2.3 marks its required members `# REQUIRED`); other code lines are skipped.
 * - A table row is one unit: its text between the outer pipes, as written.
 * - Any other line is one paragraph (the spec writes one paragraph per line), without its list
 *   marker (`- `, `1. `) or blockquote marker (`> `).
 * - A paragraph splits after `.`, `?`, `!` or `:`-free sentence ends (a stop, optionally followed
 *   by closing `**`, `*`, `)` or quotes) when whitespace and then an upper-case letter, a digit, a
 *   quote, `*` or a backtick follow.
 * - A run-in label (a bold span ending in a full stop, `**Injection rules.**`) belongs to the
 *   sentence after it; a label that carries a keyword (`**Mitigation (MUST).**`) governs its whole
 *   paragraph, which is then one sentence.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export type SpecFile = 'SPEC.md' | 'security.md' | 'conformance.md';
export const SPEC_FILES: readonly SpecFile[] = ['SPEC.md', 'security.md', 'conformance.md'];

export interface FoundSentence {
  source: SpecFile;
  /** The heading the sentence is under, as written (without the `#` marks). */
  section: string;
  text: string;
}

const KEYWORD = /\b(MUST|SHALL|REQUIRED|SHOULD)\b/;
const RUN_IN_LABEL = /^\*\*[^*]+?[.:]\*\*\s+/;
// A stop, then any closers, then whitespace, then something that starts a sentence.
const SENTENCE_END = /([.?!])(\*\*|\*|\)|"|')*(?=\s+[A-Z0-9"*`(])/g;

function splitParagraph(unit: string): string[] {
  const label = RUN_IN_LABEL.exec(unit);
  if (label && KEYWORD.test(label[0])) return [unit];
  const head = label ? label[0] : '';
  const body = unit.slice(head.length);
  const out: string[] = [];
  let start = 0;
  for (const m of body.matchAll(SENTENCE_END)) {
    const end = m.index + m[0].length;
    out.push(body.slice(start, end).trim());
    start = end;
  }
  out.push(body.slice(start).trim());
  const sentences = out.filter((s) => s.length > 0);
  if (head && sentences.length > 0) sentences[0] = `${head}${sentences[0]}`;
  return sentences;
}

interface Unit {
  section: string;
  unit: string;
  row: boolean;
}

function units(markdown: string): Unit[] {
  const out: Unit[] = [];
  let section = '';
  let fenced = false;
  for (const raw of markdown.split('\n')) {
    const line = raw.trimEnd();
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      continue;
    }
    if (fenced) {
      if (KEYWORD.test(line)) out.push({ section, unit: line, row: true });
      continue;
    }
    if (line.trim() === '') continue;
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    if (heading) {
      section = heading[1]!.trim();
      continue;
    }
    if (line.startsWith('|')) {
      if (/^\|[\s|:-]+\|$/.test(line)) continue;
      out.push({ section, unit: line.replace(/^\|\s*/, '').replace(/\s*\|$/, ''), row: true });
      continue;
    }
    out.push({ section, unit: line.replace(/^\s*(?:[-*]|\d+\.|>)\s+/, ''), row: false });
  }
  return out;
}

/** Every normative sentence of one spec file, in document order. */
export function normativeSentences(source: SpecFile, markdown: string): FoundSentence[] {
  const out: FoundSentence[] = [];
  for (const { section, unit, row } of units(markdown)) {
    const sentences = row ? [unit] : splitParagraph(unit);
    for (const text of sentences) if (KEYWORD.test(text)) out.push({ source, section, text });
  }
  return out;
}

/** Where the spec files may be: $OAP_SPEC_DIR when it is set, else the `shared/oap-1.0.1/spec` folder beside the checkout. */
export function specDirCandidates(packageRoot: string): string[] {
  const env = process.env['OAP_SPEC_DIR'];
  return env ? [env] : [join(packageRoot, '..', 'shared', 'oap-1.0.1', 'spec')];
}

export function readSpecFile(dir: string, file: SpecFile): string {
  return readFileSync(join(dir, file), 'utf8');
}
