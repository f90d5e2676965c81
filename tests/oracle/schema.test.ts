import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { resultSchemaValidator, validateDeltaSchema, validateProfileSchema, validateResultSchema } from '../../spec/document/index.js';
import { fromRoot } from '../../spec/package-root.js';

const SCHEMA_DIR = fromRoot('spec', 'schemas');

const profile = (): Record<string, unknown> => ({
  oap: '1.0',
  kind: 'AgentProfile',
  metadata: { name: 'p', description: 'd' },
  spec: { role: { instructions: 'x' } },
});

describe('vendored schemas', () => {
  it('are byte-identical to the hashes recorded in NOTICE', () => {
    const notice = readFileSync(`${SCHEMA_DIR}/NOTICE`, 'utf8');
    const recorded = [...notice.matchAll(/^\s+([0-9a-f]{64})\s+(oap-1\.0\.1\/\S+)$/gm)];
    expect(recorded).toHaveLength(3);
    for (const [, hash, file] of recorded) {
      expect(
        createHash('sha256')
          .update(readFileSync(`${SCHEMA_DIR}/${file}`))
          .digest('hex'),
        file,
      ).toBe(hash);
    }
  });

  it('NOTICE names each schema $id', () => {
    const notice = readFileSync(`${SCHEMA_DIR}/NOTICE`, 'utf8');
    for (const file of ['agent-profile', 'agent-state-delta', 'result']) {
      const schema = JSON.parse(readFileSync(`${SCHEMA_DIR}/oap-1.0.1/${file}.schema.json`, 'utf8')) as { $id: string };
      expect(notice).toContain(schema.$id);
    }
    expect(notice).toMatch(/Apache License, Version 2\.0/);
    expect(notice).toMatch(/UNMODIFIED/);
  });
});

describe('ajv error mapping', () => {
  it('accepts a minimal profile', () => {
    expect(validateProfileSchema(profile())).toEqual([]);
  });

  it('points required errors at the missing member', () => {
    const doc = profile();
    doc.spec = { role: {} };
    delete doc.metadata;
    expect(validateProfileSchema(doc)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ code: 'schema.required', pointer: '/metadata' }),
        expect.objectContaining({ code: 'schema.required', pointer: '/spec/role/instructions' }),
      ]),
    );
  });

  it('points additionalProperties errors at the extra member, escaped', () => {
    const doc = profile();
    doc['x/y~z'] = 1;
    expect(validateProfileSchema(doc)).toEqual([expect.objectContaining({ code: 'schema.additionalProperties', pointer: '/x~1y~0z' })]);
  });

  it('drops the if wrapper of if/then and keeps the real error', () => {
    const doc = profile();
    doc.spec = { role: { instructions: 'x' }, tools: { mcp_servers: [{ name: 'a', transport: 'http' }] } };
    expect(validateProfileSchema(doc)).toEqual([
      expect.objectContaining({ code: 'schema.required', pointer: '/spec/tools/mcp_servers/0/url' }),
    ]);
  });

  it('reports all errors (allErrors), as schema.<keyword> at the instance path', () => {
    const doc = profile();
    doc.metadata = { name: 'Bad Name', description: '' };
    doc.spec = { role: { instructions: 'x', persona: { verbosity: 'loud' } }, model: { parameters: { temperature: 3 } } };
    const got = validateProfileSchema(doc).map((i) => `${i.code} ${i.pointer}`);
    expect(got).toEqual(
      expect.arrayContaining([
        'schema.pattern /metadata/name',
        'schema.minLength /metadata/description',
        'schema.enum /spec/role/persona/verbosity',
        'schema.maximum /spec/model/parameters/temperature',
      ]),
    );
  });

  it('validates formats (ajv-formats date-time)', () => {
    const doc = profile();
    doc.state = { updated_at: '2026-13-01T00:00:00Z' };
    expect(validateProfileSchema(doc)).toEqual([expect.objectContaining({ code: 'schema.format', pointer: '/state/updated_at' })]);
    doc.state = { updated_at: '2026-03-01T10:00:00+01:00' };
    expect(validateProfileSchema(doc)).toEqual([]);
  });

  it('reports the remove-with-value rule at the operation', () => {
    const delta = {
      oap: '1.0',
      kind: 'AgentStateDelta',
      target: { name: 'p', revision: 1 },
      session: { id: 's' },
      operations: [{ op: 'remove', path: '/state/x', value: 1 }],
    };
    expect(validateDeltaSchema(delta)).toEqual([
      expect.objectContaining({ code: 'schema.not', pointer: '/operations/0', message: 'a remove operation must not carry a value' }),
    ]);
  });

  it('requires value on add/replace (delta if/then)', () => {
    const delta = {
      oap: '1.0',
      kind: 'AgentStateDelta',
      target: { name: 'p', revision: 1 },
      session: { id: 's' },
      operations: [{ op: 'add', path: '/state/x' }],
    };
    expect(validateDeltaSchema(delta)).toEqual([expect.objectContaining({ code: 'schema.required', pointer: '/operations/0/value' })]);
  });
});

describe('result schema', () => {
  const result = {
    schema: 'oap.conformance-result.v1',
    oap: '1.0',
    maintenance_release: '1.0.1',
    implementation: 'reference',
    implementation_version: '0.1.0',
    level: 1,
    fixture_revision: 'abcdef0',
    passed: ['L1-P1'],
    failed: [],
    generated_at: '2026-03-02T16:45:10Z',
  };

  it('is compiled once and reused', () => {
    expect(resultSchemaValidator()).toBe(resultSchemaValidator());
    expect(resultSchemaValidator()(result)).toBe(true);
  });

  it('reports problems as issues', () => {
    expect(validateResultSchema(result)).toEqual([]);
    expect(validateResultSchema({ ...result, passed: ['L9-X1'] })).toEqual([
      expect.objectContaining({ code: 'schema.pattern', pointer: '/passed/0' }),
    ]);
  });
});
