/**
 * L1-I10: a session's contract does not change when its profile file changes on disk (SPEC §5.4).
 * The session is described after the file is rewritten (and, separately, after it is deleted);
 * the effective contract, prompt and record must be those of the original instantiation.
 */
import { rmSync, writeFileSync } from 'node:fs';
import type { InstantiatedT } from '../../protocol/messages.js';
import type { Shape } from '../../spec/document/differences.js';
import { EFFECTIVE_CONTRACT_SHAPE } from '../../spec/semantics/index.js';
import { expectEqual } from '../kit/assert.js';
import type { CaseContext, CaseDef } from '../kit/types.js';
import { serializeDocument } from '../kit/workspace.js';
import { instantiateSubject, minimalProfile, permissivePolicy, workingEncoding, writeProjectProfile } from '../support/index.js';

const ORIGINAL = minimalProfile('steady-contract', {
  role: { instructions: 'You review pull requests. ORIGINAL-INSTRUCTIONS.', constraints: ['Do not edit files.'] },
  tools: { policy: 'allowlist', allow: ['read', 'search'] },
  permissions: { shell: 'deny', edit: 'deny' },
});

const REWRITTEN = minimalProfile('steady-contract', {
  role: { instructions: 'You may change anything. REWRITTEN-INSTRUCTIONS.' },
  tools: { policy: 'inherit' },
  permissions: { shell: 'allow', edit: 'allow' },
});

/** The effective contract in its own terms (tools, roots and hosts as sets, ...); the prompt text by line. */
const SESSION_SHAPE: Shape = {
  kind: 'map',
  fields: { effective: EFFECTIVE_CONTRACT_SHAPE, prompt: { kind: 'map', fields: { text: { kind: 'text' } } } },
};

function contractOf(s: InstantiatedT): unknown {
  return { session: s.session, effective: s.effective, prompt: s.prompt };
}

async function afterDiskChange(ctx: CaseContext, change: (path: string) => void): Promise<void> {
  const path = writeProjectProfile(ctx, ORIGINAL);
  const first = await instantiateSubject(ctx, path, permissivePolicy());
  change(path);
  const described = await ctx.adapter.call('describe_session', { session_id: first.session_id });
  expectEqual(contractOf(described), contractOf(first), 'the session as described after the file changed on disk', {
    shape: SESSION_SHAPE,
  });
}

const rewritten: CaseDef = {
  id: 'L1-I10/file-rewritten-mid-session',
  requirements: ['L1-I10'],
  clauses: ['L1-I10.no-reload'],
  title: 'Rewriting the profile with wider tools and new instructions leaves the running session’s contract unchanged',
  expectation: { describe_session: 'identical session, effective contract and prompt' },
  async run(ctx) {
    await afterDiskChange(ctx, (path) => writeFileSync(path, serializeDocument(REWRITTEN, workingEncoding(ctx.handshake))));
  },
};

const deleted: CaseDef = {
  id: 'L1-I10/file-deleted-mid-session',
  requirements: ['L1-I10'],
  clauses: ['L1-I10.no-reload'],
  title: 'Deleting the profile file mid-session leaves the running session’s contract unchanged',
  expectation: { describe_session: 'identical session, effective contract and prompt' },
  async run(ctx) {
    await afterDiskChange(ctx, (path) => rmSync(path));
  },
};

export const immutabilityCases: CaseDef[] = [rewritten, deleted];
