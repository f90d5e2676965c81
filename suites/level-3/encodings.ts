/**
 * L3-G1: all three encodings, Markdown included, give the same session, and a Markdown document with
 * spec.role.instructions in frontmatter AND body is rejected.
 *
 * A Level 3 claim must support every encoding (L3-G1 says so), so the handshake is checked inside
 * the case: an adapter that does not declare md fails G1 rather than being "not applicable".
 */
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { join } from 'node:path';
import type { HarnessPolicyT, InstantiatedT } from '../../adapters/protocol/messages.js';
import { encodingFromPath, parseDocument } from '../../spec/document/index.js';
import { expectEqual, expectTrue, fail } from '../framework/assert.js';
import type { CaseContext, CaseDef, Encoding } from '../framework/types.js';
import { fixture, fixtureBytes } from '../../fixtures/index.js';
import { installFixture } from './lib/fixtures.js';
import { mustReject } from './lib/session.js';
import { briefIssues, instantiatePath, mustInstantiate, permissivePolicy, sectionTexts } from '../support/index.js';

const ALL: Encoding[] = ['yaml', 'json', 'md'];

function requireAllEncodings(ctx: CaseContext): void {
  const missing = ALL.filter((e) => !ctx.handshake.encodings.includes(e));
  if (missing.length > 0)
    fail(`a Level 3 harness must accept every encoding; handshake lacks ${missing.join(', ')}`, ALL, ctx.handshake.encodings);
}

/** The comparable part of a session: no session id, path or trust, and no state text (nonces). */
function comparable(s: InstantiatedT): unknown {
  return {
    session: { name: s.session.name, revision: s.session.revision, spec_digest: s.session.spec_digest },
    effective: s.effective,
    sections: sectionTexts(s),
    state: { included: s.prompt.state.included, elided: s.prompt.state.elided },
    adjustments: s.adjustments.map((a) => `${a.action} ${a.pointer}`).sort(),
  };
}

const sameDocument: CaseDef = {
  id: 'L3-G1/three-encodings-one-session',
  requirements: ['L3-G1'],
  title: 'The same document as YAML, JSON and Markdown instantiates to the same contract, prompt and digest',
  fixtures: ['l3-g1-same'],
  expectation: fixture('level-3', 'l3-g1-same').expect,
  async run(ctx) {
    requireAllEncodings(ctx);
    const f = fixture('level-3', 'l3-g1-same');
    // Suite self-check: the fixture files really are one logical document.
    const parsed = f.files.map((rel, i) => {
      const r = parseDocument(fixtureBytes(f, i), encodingFromPath(rel)!);
      if (!r.ok) throw new Error(`fixture ${rel} does not parse: ${r.issues[0]?.code}`);
      return r.value;
    });
    if (!parsed.every((v) => isDeepStrictEqual(v, parsed[0])))
      throw new Error('fixture l3-g1-same: the three files are not one logical document');

    const policy: HarnessPolicyT = permissivePolicy();
    const seen: Array<{ encoding: string; view: unknown }> = [];
    for (const rel of f.files) {
      // Each encoding in its own directory outside every root: same file name stem, same (imported) trust.
      const enc = encodingFromPath(rel)!;
      const [path] = installFixture(ctx.workspace, f, join(ctx.workspace.root, 'imports', enc), [rel]);
      const s = mustInstantiate(await instantiatePath(ctx, path!, policy), `the ${enc} encoding`);
      seen.push({ encoding: enc, view: comparable(s) });
    }
    const [first, ...rest] = seen;
    for (const other of rest) {
      if (!isDeepStrictEqual(other.view, first!.view)) {
        const a = first!.view as Record<string, unknown>;
        const b = other.view as Record<string, unknown>;
        const differing = Object.keys(a).filter((k) => !isDeepStrictEqual(a[k], b[k]));
        fail(
          `${other.encoding} instantiates differently from ${first!.encoding} in: ${differing.join(', ')}`,
          pick(a, differing),
          pick(b, differing),
        );
      }
    }
    // The instructions really came from the Markdown body (not lost on the way).
    const text = (first!.view as { sections: Array<{ kind: string; text: string }> }).sections.map((x) => x.text).join('\n');
    expectTrue(text.includes('Naïve café résumé'), 'the instructions text is missing from the prompt', { observed: text });
  },
};

function pick(o: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.map((k) => [k, o[k]]));
}

const INSTRUCTIONS = '/spec/role/instructions';

const bothPlaces: CaseDef = {
  id: 'L3-G1/markdown-instructions-in-both-rejected',
  requirements: ['L3-G1'],
  title: 'A Markdown profile with spec.role.instructions in frontmatter and body is rejected (encoding)',
  fixtures: ['l3-g1-both'],
  expectation: fixture('level-3', 'l3-g1-both').expect,
  async run(ctx) {
    requireAllEncodings(ctx);
    const f = fixture('level-3', 'l3-g1-both');
    const [path] = installFixture(ctx.workspace, f, join(ctx.workspace.root, 'imports', 'md'));
    const text = readFileSync(path!, 'utf8');
    const validated = await ctx.adapter.call('validate', { document: { content: text, encoding: 'md' } });
    expectEqual(validated.valid, false, 'validate verdict for instructions in both places');
    const r = mustReject(
      await instantiatePath(ctx, path!, permissivePolicy()),
      'encoding',
      'instantiate a Markdown profile with instructions in both places',
    );
    ctx.note('errors', { validate: briefIssues(validated.errors), instantiate: briefIssues(r.errors) });
    for (const [what, issues] of [
      ['validate', validated.errors],
      ['instantiate', r.errors],
    ] as const) {
      const enc = issues.filter((e) => e.category === 'encoding');
      expectTrue(enc.length > 0, `${what}: no error of category encoding`, { expected: 'encoding', observed: briefIssues(issues) });
      // The pointer must lead to the instructions (or an ancestor of them), not somewhere unrelated.
      expectTrue(
        enc.some((e) => INSTRUCTIONS === e.pointer || INSTRUCTIONS.startsWith(`${e.pointer}/`) || e.pointer === ''),
        `${what}: the encoding error does not point at ${INSTRUCTIONS}`,
        { expected: INSTRUCTIONS, observed: enc.map((e) => e.pointer) },
      );
    }
  },
};

export const encodingCases: CaseDef[] = [sameDocument, bothPlaces];
