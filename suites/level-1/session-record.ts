/**
 * L1-I8: the session records the profile name, revision and spec digest (SPEC §5.3). The expected
 * spec digest is the runner oracle's specDigest of the file as written, never the adapter's.
 */
import { expectEqual } from '../kit/assert.js';
import type { CaseDef } from '../kit/types.js';
import { specDigest } from '../../spec/document/index.js';
import { instantiateSubject, minimalProfile, oracleRead, permissivePolicy, writeProjectProfile } from '../support/index.js';

const recordWithRevision: CaseDef = {
  id: 'L1-I8/name-revision-spec-digest',
  requirements: ['L1-I8'],
  clauses: ['L1-I8.name', 'L1-I8.revision', 'L1-I8.spec-digest'],
  title: 'A revision-7 profile: the session records its name, revision 7 and the SPEC §2.2 spec digest',
  async run(ctx) {
    const doc = minimalProfile(
      'recorded-agent',
      { role: { constraints: ['Report only.'] }, tools: { policy: 'allowlist', allow: ['read', 'search'] } },
      { state: { summary: 'Learned state is not part of the spec digest.', facts: [{ id: 'f1', text: 'The build uses make.' }] } },
    );
    Object.assign(doc['metadata'] as object, {
      revision: 7,
      id: 'urn:example:agents:recorded-agent',
      annotations: { 'other.example/team': 'platform' },
    });
    const path = writeProjectProfile(ctx, doc);
    const expected = { name: 'recorded-agent', revision: 7, spec_digest: specDigest(oracleRead(path)) };
    const session = await instantiateSubject(ctx, path, permissivePolicy());
    const s = session.session;
    expectEqual({ name: s.name, revision: s.revision, spec_digest: s.spec_digest }, expected, 'session record');
  },
};

const recordExcludesOwnedFields: CaseDef = {
  id: 'L1-I8/spec-digest-ignores-revision-updated-at-trust',
  requirements: ['L1-I8'],
  clauses: ['L1-I8.revision', 'L1-I8.spec-digest'],
  title: 'The recorded spec digest excludes revision, updated_at and trust; a missing revision is recorded as 1',
  about: ['optional-metadata'],
  async run(ctx) {
    const doc = minimalProfile('recorded-defaults', { lifecycle: { writeback: 'propose' } });
    Object.assign(doc['metadata'] as object, { updated_at: '2026-01-02T03:04:05Z', trust: 'managed' });
    const path = writeProjectProfile(ctx, doc);
    const expected = { name: 'recorded-defaults', revision: 1, spec_digest: specDigest(oracleRead(path)) };
    const session = await instantiateSubject(ctx, path, permissivePolicy());
    const s = session.session;
    expectEqual({ name: s.name, revision: s.revision, spec_digest: s.spec_digest }, expected, 'session record');
  },
};

export const sessionRecordCases: CaseDef[] = [recordWithRevision, recordExcludesOwnedFields];
