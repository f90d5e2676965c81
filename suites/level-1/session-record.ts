/**
 * L1-I8: the session records the profile name, revision and spec digest (SPEC §5.3), one case per
 * field so a verdict names the one that is wrong. The expected spec digest is the runner oracle's
 * specDigest of the file as written, never the adapter's.
 */
import { expectEqual } from '../kit/assert.js';
import type { CaseDef } from '../kit/types.js';
import type { ClauseId } from '../../spec/requirements.js';
import { specDigest } from '../../spec/document/index.js';
import { instantiateSubject, minimalProfile, oracleRead, permissivePolicy, writeProjectProfile } from '../support/index.js';

/** A revision-7 profile with an id, an annotation and learned state: each record field has a wrong value to be confused with. */
function recordedProfile(): Record<string, unknown> {
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
  return doc;
}

/** One field of the session record of the revision-7 profile: each clause of L1-I8 is its own case, so a verdict names the field. */
function recordField(field: 'name' | 'revision' | 'spec_digest', clause: ClauseId, title: string): CaseDef {
  return {
    id: `L1-I8/records-${field.replace('_', '-')}`,
    requirements: ['L1-I8'],
    clauses: [clause],
    title,
    async run(ctx) {
      const path = writeProjectProfile(ctx, recordedProfile());
      const expected = { name: 'recorded-agent', revision: 7, spec_digest: specDigest(oracleRead(path)) }[field];
      const session = await instantiateSubject(ctx, path, permissivePolicy());
      expectEqual(session.session[field], expected, `session ${field}`);
    },
  };
}

const recordName = recordField('name', 'L1-I8.name', 'The session records metadata.name as the profile name (not metadata.id)');
const recordRevision = recordField('revision', 'L1-I8.revision', 'The session of a revision-7 profile records revision 7');
const recordSpecDigest = recordField(
  'spec_digest',
  'L1-I8.spec-digest',
  'The session records the SPEC §2.2 spec digest of a profile with learned state (not its profile digest)',
);

const recordDefaultRevision: CaseDef = {
  id: 'L1-I8/missing-revision-recorded-as-1',
  requirements: ['L1-I8'],
  clauses: ['L1-I8.revision'],
  title: 'The session of a profile without metadata.revision records revision 1 (SPEC §3.1 default)',
  about: ['optional-metadata'],
  async run(ctx) {
    const path = writeProjectProfile(ctx, minimalProfile('recorded-first-revision'));
    const session = await instantiateSubject(ctx, path, permissivePolicy());
    expectEqual(session.session.revision, 1, 'session revision');
  },
};

const recordExcludesOwnedFields: CaseDef = {
  id: 'L1-I8/spec-digest-ignores-revision-updated-at-trust',
  requirements: ['L1-I8'],
  clauses: ['L1-I8.spec-digest'],
  title: 'The recorded spec digest excludes revision, updated_at and trust',
  about: ['optional-metadata'],
  async run(ctx) {
    const doc = minimalProfile('recorded-defaults', { lifecycle: { writeback: 'propose' } });
    Object.assign(doc['metadata'] as object, { updated_at: '2026-01-02T03:04:05Z', trust: 'managed' });
    const path = writeProjectProfile(ctx, doc);
    const session = await instantiateSubject(ctx, path, permissivePolicy());
    expectEqual(session.session.spec_digest, specDigest(oracleRead(path)), 'session spec digest');
  },
};

export const sessionRecordCases: CaseDef[] = [
  recordName,
  recordRevision,
  recordSpecDigest,
  recordDefaultRevision,
  recordExcludesOwnedFields,
];
