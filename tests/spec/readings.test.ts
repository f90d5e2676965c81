/**
 * Every failure links the reading it rests on (spec/readings.ts): the links resolve to headings of
 * the shipped INTERPRETATIONS.md and protocol/PROTOCOL.md (GitHub's heading anchors), and a
 * difference in a contract dimension links the rule that reads it.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readingsOf } from '../../spec/readings.js';
import { ADVISORIES, REQUIREMENTS } from '../../spec/requirements.js';
import { fromRoot } from '../../spec/package-root.js';

/** GitHub's anchor of a Markdown heading: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string): string =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

function anchorsOf(file: string): Set<string> {
  const text = readFileSync(fromRoot(...file.split('/')), 'utf8');
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1]!)));
}

describe('readings a failure links', () => {
  it('every link of every ID and dimension is a heading of a file the package ships', () => {
    const files = new Map<string, Set<string>>();
    const pointers = ['/tools', '/hosts', '/filesystem/read_roots', '/permissions/shell', '/rules', '/memory/scopes', '/budgets/max_turns'];
    const ids = [...REQUIREMENTS.map((q) => q.id), ...ADVISORIES.map((a) => a.id)];
    const links = new Set([...ids.flatMap((id) => readingsOf([id])), ...pointers.flatMap((p) => readingsOf([], p))]);
    expect(links.size).toBeGreaterThan(5);
    const files_ = (JSON.parse(readFileSync(fromRoot('package.json'), 'utf8')) as { files: string[] }).files;
    for (const link of links) {
      const [file, anchor] = link.split('#') as [string, string];
      expect(
        files_.some((f) => file === f || file.startsWith(`${f}/`) || f === file.split('/')[0]),
        `${file} is shipped`,
      ).toBe(true);
      if (!files.has(file)) files.set(file, anchorsOf(file));
      expect(files.get(file)!.has(anchor), link).toBe(true);
    }
  });

  it('a tool difference links the glob dialect and the policy section; L1-I6 and its advisory the settled reading', () => {
    expect(readingsOf(['L1-I2'], '/tools')).toEqual([
      'INTERPRETATIONS.md#glob-dialect',
      'INTERPRETATIONS.md#tools',
      'protocol/PROTOCOL.md#51-the-harness-policy',
      'INTERPRETATIONS.md#every-id-one-reading-level-1',
    ]);
    expect(readingsOf(['L1-I3'], '/hosts')[0]).toBe('INTERPRETATIONS.md#hosts');
    expect(readingsOf(['ADV-env-same-name'])).toEqual(['INTERPRETATIONS.md#a-reference-of-another-name']);
    expect(readingsOf(['L1-I6'])).toContain('INTERPRETATIONS.md#a-reference-of-another-name');
    // A meta key of the evidence is no dimension.
    expect(readingsOf(['L1-I3'], '/within')).toEqual(['INTERPRETATIONS.md#every-id-one-reading-level-1']);
  });
});
