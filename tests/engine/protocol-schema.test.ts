import { describe, expect, test } from 'vitest';
import { generateProtocolSchemas, schemaDrift } from '../../runner/protocol-schema.js';
import { ProtocolChecker } from '../../runner/engine/protocol-check.js';
import { minimalProfile, permissivePolicy } from '../../suites/support/index.js';

describe('protocol JSON Schemas', () => {
  test('the committed files match what messages.ts generates (run `npm run protocol:schema` when this fails)', () => {
    expect(schemaDrift()).toEqual([]);
  });

  test('one params and one result schema per method, plus the envelopes', () => {
    const files = [...generateProtocolSchemas().keys()];
    expect(files).toContain('rpc-request.schema.json');
    expect(files).toContain('instantiate.params.schema.json');
    expect(files).toContain('instantiate.result.schema.json');
    expect(files).toHaveLength(2 + 2 * 11);
  });

  test('--check-protocol accepts real messages and names the first problem of a bad one', () => {
    const check = new ProtocolChecker();
    const policy = permissivePolicy();
    expect(
      check.request({
        jsonrpc: '2.0',
        id: 1,
        method: 'instantiate',
        params: { workspace: '/w', roots: { project: '/w' }, profile: { name: 'a' }, policy },
      }),
    ).toBeUndefined();
    expect(
      check.request({ jsonrpc: '2.0', id: 1, method: 'validate', params: { document: { content: JSON.stringify(minimalProfile('a')) } } }),
    ).toMatch(/validate\.params/);
    expect(check.request({ jsonrpc: '2.0', id: 1, method: 'nope' })).toMatch(/unknown method/);
    expect(check.response('validate', { jsonrpc: '2.0', id: 1, result: { valid: true, errors: [], warnings: [] } })).toBeUndefined();
    expect(check.response('validate', { jsonrpc: '2.0', id: 1, result: { valid: 'yes', errors: [], warnings: [] } })).toMatch(/\/valid/);
    expect(
      check.response('validate', { jsonrpc: '2.0', id: 1, error: { code: -32001, message: 'not implemented', data: { reason: 'r' } } }),
    ).toBeUndefined();
    expect(check.response('validate', { jsonrpc: '1.0', id: 1, result: {} })).toMatch(/rpc-response/);
  });
});
