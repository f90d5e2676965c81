/**
 * L1-I4: metadata.trust comes from the discovery root; a value in the file is discarded
 * (SPEC §3.1, §5.2 step 4, §7.1; security.md rule 2).
 *
 * Each case first asks discovery where the adapter sees the file. When the adapter does not place
 * it in the intended root at all, that is a discovery defect (L1-D1 / L3-G3) and this case is not
 * applicable; otherwise the session's trust must be the root's label, whatever the file claims.
 */
import { join } from 'node:path';
import { trustOfRoot } from '../../spec/semantics/index.js';
import { expectEqual } from '../kit/assert.js';
import type { CaseDef, RootKind } from '../kit/types.js';
import {
  claimedRoots,
  instantiateSubject,
  issuesCause,
  minimalProfile,
  permissivePolicy,
  requireObservable,
  samePath,
  workingEncoding,
  writeProfile,
} from '../support/index.js';

function rootCase(root: 'managed' | 'user' | 'project', claimed: 'managed' | 'user' | 'project' | 'imported'): CaseDef {
  return {
    id: `L1-I4/${root}-root-file-claiming-${claimed}`,
    requirements: ['L1-I4'],
    clauses: ['L1-I4.from-root', 'L1-I4.discard-file-value'],
    title: `A ${root}-root profile whose file says trust: ${claimed} is labelled ${trustOfRoot(root)}`,
    needs: { roots: [root as RootKind] },
    expectation: { sessionTrust: trustOfRoot(root), discoveredTrust: trustOfRoot(root) },
    async run(ctx) {
      const doc = minimalProfile(`claims-${claimed}-in-${root}`, {}, {});
      (doc['metadata'] as Record<string, unknown>)['trust'] = claimed;
      const dir = root === 'project' ? ctx.workspace.projectAgents : ctx.workspace.roots[root];
      const path = writeProfile(dir, doc, workingEncoding(ctx.handshake));
      const found = await ctx.adapter.call('discover', { workspace: ctx.workspace.dir, roots: claimedRoots(ctx) });
      const entry = found.profiles.find((p) => samePath(p.path, path));
      requireObservable(
        entry?.root === root,
        `discovery does not place the file in the ${root} root; discovery cases judge that`,
        entry ? `discover listed the file in the ${entry.root} root` : issuesCause('discover did not list the file', found.errors),
      );
      if (!entry) return;
      expectEqual(entry.trust, trustOfRoot(root), 'trust reported by discovery');
      const session = await instantiateSubject(ctx, path, permissivePolicy());
      expectEqual(session.session.trust, trustOfRoot(root), 'trust recorded for the session');
    },
  };
}

const outsideRoots: CaseDef = {
  id: 'L1-I4/file-outside-roots-is-imported',
  requirements: ['L1-I4'],
  clauses: ['L1-I4.from-root', 'L1-I4.discard-file-value'],
  title: 'A profile loaded by path from outside every discovery root is labelled imported, even when it claims managed',
  // No sentence requires loading a profile from outside every root; a harness that declares it
  // cannot (and a probe confirms it) has no such profile to label.
  needs: { outsideRoots: true },
  expectation: { sessionTrust: 'imported' },
  async run(ctx) {
    const doc = minimalProfile('claims-managed-from-elsewhere');
    (doc['metadata'] as Record<string, unknown>)['trust'] = 'managed';
    const path = writeProfile(join(ctx.workspace.root, 'downloads'), doc, workingEncoding(ctx.handshake));
    const session = await instantiateSubject(ctx, path, permissivePolicy());
    expectEqual(session.session.trust, 'imported', 'trust recorded for a profile from outside the roots');
  },
};

export const trustCases: CaseDef[] = [
  rootCase('project', 'managed'),
  rootCase('project', 'user'),
  rootCase('user', 'managed'),
  rootCase('managed', 'imported'),
  outsideRoots,
];
