import { describe, expect, it } from 'vitest';
import {
  checkDeltaRules,
  checkHistory,
  checkKind,
  checkProfileRules,
  checkStatePointer,
  checkVersion,
  checkWorkspacePath,
  classifyKind,
  findCredential,
  validateDocument,
  type OapIssue,
} from '../../spec/document/index.js';

const codes = (issues: readonly OapIssue[]): string[] => issues.map((i) => `${i.code} ${i.pointer}`);

function profile(spec: Record<string, unknown> = {}, rest: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    oap: '1.0',
    kind: 'AgentProfile',
    metadata: { name: 'p', description: 'd' },
    spec: { role: { instructions: 'Do the task.' }, ...spec },
    ...rest,
  };
}

function delta(operations: unknown[], proposals?: unknown[]): Record<string, unknown> {
  return {
    oap: '1.0',
    kind: 'AgentStateDelta',
    target: { name: 'p', revision: 1 },
    session: { id: 's' },
    operations,
    ...(proposals ? { proposals } : {}),
  };
}

describe('oap version (L1-P3, L1-P4)', () => {
  it.each([
    ['1.0', []],
    ['1.00', []],
    ['1.1', ['version-minor /oap']],
    ['1.10', ['version-minor /oap']],
    ['2.0', ['version-major /oap']],
    ['0.9', ['version-major /oap']],
    ['10.0', ['version-major /oap']],
    ['2', ['version-major /oap']],
    ['2.0.0', ['version-major /oap']],
    ['1.0.1', []], // not MAJOR.MINOR: left to the schema pattern
    ['v1', []],
  ])('oap %j → %j', (oap, expected) => {
    expect(codes(checkVersion({ oap }))).toEqual(expected);
  });

  it('leaves non-strings and absence to the schema', () => {
    expect(checkVersion({ oap: 1 })).toEqual([]);
    expect(checkVersion({})).toEqual([]);
    expect(checkVersion(null)).toEqual([]);
  });

  it('is reported before the schema errors for the same document', () => {
    const issues = validateDocument(profile({}, { oap: '2.0' })).issues;
    expect(codes(issues)).toEqual(['version-major /oap', 'schema.pattern /oap']);
  });
});

describe('kind (L1-P5)', () => {
  it.each([
    ['AgentProfile', 'AgentProfile', []],
    ['AgentStateDelta', 'AgentStateDelta', []],
    ['AgentProfileBundle', undefined, ['kind.reserved /kind']],
    ['AgentProfileIndex', undefined, ['kind.reserved /kind']],
    ['agentprofile', undefined, ['kind.unknown /kind']],
    ['Agent', undefined, ['kind.unknown /kind']],
    [42, undefined, ['kind.unknown /kind']],
    [null, undefined, ['kind.unknown /kind']],
  ])('kind %j', (kind, expectedKind, expected) => {
    const r = classifyKind({ kind });
    expect(r.kind).toBe(expectedKind);
    expect(codes(r.issues)).toEqual(expected);
  });

  it('reports a missing kind', () => {
    expect(codes(checkKind({ oap: '1.0' }))).toEqual(['kind.missing /kind']);
  });

  it('validateDocument applies no schema to unknown kinds but still scans', () => {
    const r = validateDocument({ oap: '1.1', kind: 'AgentProfileBundle', profiles: [{ note: 'ghp_0123456789abcdefghijABCDEFGHIJ' }] });
    expect(r.kind).toBeUndefined();
    expect(codes(r.issues)).toEqual(['version-minor /oap', 'kind.reserved /kind', 'secret-pattern.github-token /profiles/0/note']);
  });

  it('rejects a non-object document', () => {
    for (const doc of [[], 'text', 1, null]) expect(codes(validateDocument(doc).issues)).toEqual(['schema.type ']);
  });
});

describe('MCP env and headers (L1-I6)', () => {
  const withServer = (server: Record<string, unknown>): Record<string, unknown> =>
    profile({ tools: { mcp_servers: [{ name: 's', transport: 'stdio', command: 'c', ...server }] } });

  it.each([
    [{ TOKEN: '${TOKEN}' }, []],
    [{ A: '${A}', B_2: '${B_2}' }, []],
    [{ TOKEN: 'sk-live-abc123' }, ['secret-literal.env /spec/tools/mcp_servers/0/env/TOKEN']],
    [{ TOKEN: '${OTHER}' }, ['secret-literal.env /spec/tools/mcp_servers/0/env/TOKEN']],
    [{ TOKEN: '$TOKEN' }, ['secret-literal.env /spec/tools/mcp_servers/0/env/TOKEN']],
    [{ TOKEN: '${TOKEN} ' }, ['secret-literal.env /spec/tools/mcp_servers/0/env/TOKEN']],
    [{ TOKEN: '' }, ['secret-literal.env /spec/tools/mcp_servers/0/env/TOKEN']],
    [{ PORT: 8080 }, ['secret-literal.env /spec/tools/mcp_servers/0/env/PORT']],
    [{ FLAG: true }, ['secret-literal.env /spec/tools/mcp_servers/0/env/FLAG']],
    [{ 'A/B': 'x' }, ['secret-literal.env /spec/tools/mcp_servers/0/env/A~1B']],
  ])('env %j', (env, expected) => {
    expect(codes(checkProfileRules(withServer({ env })))).toEqual(expected);
  });

  it.each([
    [{ Authorization: 'Bearer ${TOKEN}' }, []],
    [{ 'X-Api-Key': '${API_KEY}' }, []],
    [{ Authorization: 'Bearer abc123' }, ['secret-literal.header /spec/tools/mcp_servers/0/headers/Authorization']],
    [{ Authorization: 'bearer ${TOKEN}' }, ['secret-literal.header /spec/tools/mcp_servers/0/headers/Authorization']],
    [{ Authorization: 'Basic ${CREDS}' }, ['secret-literal.header /spec/tools/mcp_servers/0/headers/Authorization']],
    [{ Authorization: 'Bearer  ${TOKEN}' }, ['secret-literal.header /spec/tools/mcp_servers/0/headers/Authorization']],
    [{ 'X-Key': '${lower}' }, ['secret-literal.header /spec/tools/mcp_servers/0/headers/X-Key']],
    [{ 'X-Key': 12 }, ['secret-literal.header /spec/tools/mcp_servers/0/headers/X-Key']],
  ])('headers %j', (headers, expected) => {
    expect(codes(checkProfileRules(withServer({ headers })))).toEqual(expected);
  });

  it('checks every server, and orders secret-literal before the schema error', () => {
    const doc = profile({
      tools: {
        mcp_servers: [
          { name: 'a', transport: 'stdio', command: 'a', env: { A: '${A}' } },
          { name: 'b', transport: 'http', url: 'https://b', env: { B: 'literal' } },
        ],
      },
    });
    expect(codes(validateDocument(doc).issues)).toEqual([
      'secret-literal.env /spec/tools/mcp_servers/1/env/B',
      'schema.pattern /spec/tools/mcp_servers/1/env/B',
    ]);
  });

  it('never echoes the secret in the message', () => {
    const [i] = checkProfileRules(withServer({ env: { TOKEN: 'sk-live-abc123' } }));
    expect(i?.message).not.toContain('abc123');
  });

  it('ignores env-like objects elsewhere in the document', () => {
    expect(checkProfileRules(profile({ context: { variables: { TOKEN: 'plain value' } } }))).toEqual([]);
  });
});

describe('credential shapes anywhere (SPEC §7.3)', () => {
  const ghp = 'ghp_' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8';
  it.each([
    ['sk-key', 'sk-proj-4fT9xQ2mL8vN1bZ7cR3kW6yH'],
    ['sk-key', 'key=sk-live-51abcdefghijklmnop'],
    ['anthropic-key', 'sk-ant-api03-Zq8R2mW5tY7uI9oP1aS3dF6gH'],
    ['github-token', ghp],
    ['github-token', 'gho_0123456789abcdefghijklmnopqrstuv'],
    ['github-token', 'ghs_0123456789abcdefghijklmnopqrstuv'],
    ['github-token', 'github_pat_11ABCDEFG0123456789_abcdefghijklmnop'],
    ['aws-access-key', 'AKIAIOSFODNN7EXAMPLE'],
    ['aws-access-key', 'id=ASIAY34FZKBOKMUTVV7A;'],
    ['slack-token', 'xoxb-2648-1234567890-AbCdEfGhIjKl'],
    ['slack-token', 'xoxp-1234567890-abcdef'],
    ['private-key', '-----BEGIN PRIVATE KEY-----\nMIIE...'],
    ['private-key', '-----BEGIN RSA PRIVATE KEY-----'],
    ['private-key', '-----BEGIN OPENSSH PRIVATE KEY-----'],
    ['private-key', '-----BEGIN PGP PRIVATE KEY BLOCK-----'],
    ['jwt', 'Authorization: eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZ2VudCJ9.c2lnbmF0dXJl'],
    ['stripe-key', 'sk_live_51Hq8ZtK2eZvKYlo2C7x9QwEr'],
  ])('finds %s in %j', (shape, text) => {
    expect(findCredential(text)?.name).toBe(shape);
  });

  it.each([
    'task-list-management-service-documentation-2',
    'desk-booking-application-for-offices-2024',
    'kiosk-mode-configuration-v2',
    'risk-assessment-2026-security-review',
    'ask-for-review-before-merging-2',
    'sk-live-abc123',
    'sk-this-is-just-a-long-hyphenated-phrase',
    'the sk- prefix',
    'ghp_short',
    'AKIA',
    'AKIAIOSFODNN7EXAMPLEX',
    'xoxo-hugs-and-kisses',
    '-----BEGIN CERTIFICATE-----',
    '-----BEGIN PUBLIC KEY-----',
    'eyJ alone',
    'see eyJhbGciOiJIUzI1NiJ9 only',
  ])('does not flag %j', (text) => {
    expect(findCredential(text)).toBeUndefined();
  });

  it('scans keys and values at every depth, in state too', () => {
    const doc = profile(
      { context: { variables: { [ghp]: 'x' } } },
      {
        state: { facts: [{ id: 'f', text: `token ${ghp}` }] },
        metadata: { name: 'p', description: 'd', annotations: { 'a.example/k': 'AKIAIOSFODNN7EXAMPLE' } },
      },
    );
    expect(codes(checkProfileRules(doc))).toEqual(
      expect.arrayContaining([
        `secret-pattern.github-token /spec/context/variables/${ghp}`,
        'secret-pattern.github-token /state/facts/0/text',
        'secret-pattern.aws-access-key /metadata/annotations/a.example~1k',
      ]),
    );
  });

  it('never echoes the credential', () => {
    const [i] = checkProfileRules(profile({}, { state: { summary: ghp } }));
    expect(i?.message).not.toContain(ghp);
  });
});

describe('workspace paths (L1-I5, security.md T6)', () => {
  it.each([
    'docs/guide.md',
    './docs/guide.md',
    'a/../b',
    'a/b/../../c',
    'src/',
    '.',
    '',
    'dir//file',
    '.hidden/file',
    'a/~b',
    '100%-done.md',
    'name with spaces',
    'café/notes.md',
    '..foo/bar',
    'foo../bar',
  ])('accepts %j', (path) => {
    expect(checkWorkspacePath(path)).toBeNull();
  });

  it.each([
    ['..', 'traversal'],
    ['../x', 'traversal'],
    ['../../etc/passwd', 'traversal'],
    ['a/../../x', 'traversal'],
    ['./../x', 'traversal'],
    ['a/b/../../../x', 'traversal'],
    ['/etc/passwd', 'absolute'],
    ['/', 'absolute'],
    ['..\\x', 'backslash'],
    ['a\\b', 'backslash'],
    ['C:', 'drive'],
    ['C:/Windows', 'drive'],
    ['c:\\x', 'drive'],
    ['C:x', 'drive'],
    ['\\\\server\\share', 'unc'],
    ['//server/share', 'unc'],
    ['\\/server', 'unc'],
    ['%2e%2e/etc', 'percent-encoded'],
    ['%2E%2E/etc', 'percent-encoded'],
    ['..%2fetc', 'percent-encoded'],
    ['..%2F..%2Fetc', 'percent-encoded'],
    ['..%5c..%5cwin', 'percent-encoded'],
    ['%252e%252e/x', 'percent-encoded'],
    ['%c0%ae%c0%ae/x', 'percent-encoded'],
    ['file%00.md', 'percent-encoded'],
    ['~/.ssh/id_rsa', 'home'],
    ['~root/x', 'home'],
    ['~', 'home'],
    ['a\u0000b', 'nul'],
    ['．．／etc', 'confusable'],
    ['a\uff3cb', 'confusable'],
    ['docs/.../x', 'dot-segment'],
    ['docs/.. /x', 'dot-segment'],
    ['$HOME/.aws', 'variable'],
    ['${WORKSPACE}/../x', 'variable'],
    ['file:///etc/passwd', 'scheme'],
    ['https://example.com/x', 'scheme'],
  ])('rejects %j as path-escape.%s', (path, why) => {
    expect(checkWorkspacePath(path, { pointer: '/p' })).toMatchObject({ code: `path-escape.${why}`, pointer: '/p', severity: 'error' });
  });

  it('accepts absolute paths only when the harness permits them', () => {
    expect(checkWorkspacePath('/srv/data', { allowAbsolute: true })).toBeNull();
    expect(checkWorkspacePath('C:/data', { allowAbsolute: true })).toBeNull();
    expect(checkWorkspacePath('C:\\data', { allowAbsolute: true })?.code).toBe('path-escape.drive');
    expect(checkWorkspacePath('//server/share', { allowAbsolute: true })?.code).toBe('path-escape.unc');
    expect(checkWorkspacePath('../x', { allowAbsolute: true })?.code).toBe('path-escape.traversal');
  });

  it('checks files, working_directory, read_roots and write_roots but not deny_paths', () => {
    const doc = profile({
      context: { working_directory: '..', files: [{ path: 'ok.md' }, { path: '../../etc/passwd' }] },
      permissions: { filesystem: { read_roots: ['/'], write_roots: ['out', '~/x'], deny_paths: ['/etc', '../secrets'] } },
    });
    expect(codes(checkProfileRules(doc))).toEqual([
      'path-escape.traversal /spec/context/files/1/path',
      'path-escape.traversal /spec/context/working_directory',
      'path-escape.absolute /spec/permissions/filesystem/read_roots/0',
      'path-escape.home /spec/permissions/filesystem/write_roots/1',
    ]);
    expect(checkProfileRules(doc, { allowAbsolutePaths: true }).map((i) => i.pointer)).not.toContain(
      '/spec/permissions/filesystem/read_roots/0',
    );
  });
});

describe('delta operations (L2-A2, SPEC §6.2)', () => {
  it.each([
    '/state',
    '/state/facts/-',
    '/state/facts/0/text',
    '/state/facts/id:fact-1',
    '/state/summary',
    '/state/a~1b',
    '/state/a~0b',
    '/state/',
    '/state/..x',
    '/state/x..',
  ])('keeps %j in scope', (path) => {
    expect(checkStatePointer(path)).toBeUndefined();
  });

  it.each([
    ['', 'outside'],
    ['/', 'outside'],
    ['/spec/tools/allow', 'outside'],
    ['/metadata/name', 'outside'],
    ['/statex', 'outside'],
    ['/State/facts', 'outside'],
    ['state/facts', 'outside'],
    ['#/state/facts', 'outside'],
    ['/state/../spec', 'dot-segment'],
    ['/state/./facts', 'dot-segment'],
    ['/state/facts/..', 'dot-segment'],
    ['/state/~1..~1spec', 'dot-segment'],
    ['/state/..\\spec', 'dot-segment'],
    ['/state/%2e%2e/spec', 'percent-encoded'],
    ['/state/%2E%2E', 'percent-encoded'],
    ['/state/..%2fspec', 'percent-encoded'],
    ['/state/~2', 'invalid-pointer'],
    ['/state/a~', 'invalid-pointer'],
    ['/state/a\u0000', 'nul'],
  ])('rejects %j as delta-scope.%s', (path, why) => {
    expect(checkStatePointer(path)?.why).toBe(why);
    expect(codes(checkDeltaRules(delta([{ op: 'add', path, value: 1 }])))).toEqual([`delta-scope.${why} /operations/0/path`]);
  });

  it.each(['move', 'copy', 'test'])('rejects reserved op %s in operations and proposals', (op) => {
    const issues = checkDeltaRules(delta([{ op, path: '/state/x' }], [{ op, path: '/spec/x', rationale: 'r' }]));
    expect(codes(issues)).toEqual(['delta-reserved-op /operations/0/op', 'delta-reserved-op /proposals/0/op']);
  });

  it('accepts add/replace/remove', () => {
    expect(
      checkDeltaRules(
        delta([
          { op: 'add', path: '/state/a', value: 1 },
          { op: 'replace', path: '/state/b', value: 2 },
          { op: 'remove', path: '/state/c' },
        ]),
      ),
    ).toEqual([]);
  });

  it('schema lets /state/../spec through; the rule does not', () => {
    const r = validateDocument(delta([{ op: 'replace', path: '/state/../spec/tools/allow', value: ['shell'] }]));
    expect(codes(r.issues)).toEqual(['delta-scope.dot-segment /operations/0/path']);
  });

  it('applies profile secret and path rules inside proposal values, wherever the proposal points', () => {
    const server = { name: 'x', transport: 'stdio', command: 'x', env: { K: 'literal' } };
    const issues = checkDeltaRules(
      delta(
        [],
        [
          { path: '/spec/tools/mcp_servers/-', op: 'add', value: server, rationale: 'r' },
          { path: '/spec/tools', value: { mcp_servers: [server] }, rationale: 'r' },
          { path: '/spec/tools/mcp_servers/0/env/K', value: 'literal', rationale: 'r' },
          { path: '/spec/context/files/-', value: { path: '../x' }, rationale: 'r' },
          { path: '/spec/permissions/filesystem/read_roots', value: ['ok', '/etc'], rationale: 'r' },
          { path: '/spec/tools/mcp_servers/0/env/K', op: 'remove', rationale: 'r' },
        ],
      ),
    );
    expect(codes(issues)).toEqual([
      'secret-literal.env /proposals/0/value/env/K',
      'secret-literal.env /proposals/1/value/mcp_servers/0/env/K',
      'secret-literal.env /proposals/2/value',
      'path-escape.traversal /proposals/3/value/path',
      'path-escape.absolute /proposals/4/value/1',
    ]);
  });

  it('rejects proposal paths with dot segments', () => {
    expect(codes(checkDeltaRules(delta([], [{ path: '/spec/../state', value: {}, rationale: 'r' }])))).toEqual([
      'delta-scope.proposal-path /proposals/0/path',
    ]);
  });

  it('scans operation values for credentials', () => {
    const issues = checkDeltaRules(delta([{ op: 'add', path: '/state/facts/-', value: { id: 'f', text: 'AKIAIOSFODNN7EXAMPLE' } }]));
    expect(codes(issues)).toEqual(['secret-pattern.aws-access-key /operations/0/value/text']);
  });
});

describe('history against the revision counter (SPEC §2.4, §3.10)', () => {
  const h = (...revisions: number[]) => revisions.map((revision, i) => ({ revision, at: `2030-01-0${(i % 9) + 1}T00:00:00Z` }));
  it.each([
    ['no history', undefined, undefined, []],
    ['empty history', 3, h(), []],
    ['consecutive, ending at the revision', 4, h(3, 4), []],
    ['gaps (trimmed or edited by hand) are fine', 12, h(2, 7, 11), []],
    ['below the revision', 9, h(5), []],
    ['absent revision defaults to 1', undefined, h(1), []],
    ['absent revision, entry above 1', undefined, h(2), ['other.history-ahead /history/0/revision']],
    ['entry above the revision', 4, h(3, 5), ['other.history-ahead /history/1/revision']],
    ['oldest last', 4, h(4, 3), ['other.history-order /history/1/revision']],
    ['one revision logged twice', 4, h(4, 4), ['other.history-order /history/1/revision']],
    ['out of order and ahead', 2, h(1, 3, 2), ['other.history-ahead /history/1/revision', 'other.history-order /history/2/revision']],
  ])('%s', (_label, revision, history, expected) => {
    const doc = profile({}, { ...(revision === undefined ? {} : { metadata: { name: 'p', description: 'd', revision } }), history });
    expect(codes(checkHistory(doc))).toEqual(expected);
    expect(codes(validateDocument(doc).issues)).toEqual(expected);
  });

  it('leaves malformed shapes to the schema', () => {
    expect(checkHistory(profile({}, { history: 'x' }))).toEqual([]);
    expect(checkHistory(profile({}, { history: [null, { revision: 'two' }, { revision: 1.5 }] }))).toEqual([]);
    expect(checkHistory(profile({}, { metadata: { name: 'p', description: 'd', revision: 'x' }, history: h(9) }))).toEqual([]);
    expect(checkHistory(null)).toEqual([]);
  });
});

describe('values only in-memory documents can carry', () => {
  it('reports non-finite numbers anywhere', () => {
    const doc = profile({ model: { parameters: { temperature: Number.NaN } } }, { state: { metrics: { total_cost_usd: Infinity } } });
    expect(codes(checkProfileRules(doc))).toEqual([
      'non-finite /spec/model/parameters/temperature',
      'non-finite /state/metrics/total_cost_usd',
    ]);
    expect(codes(validateDocument(doc).issues)[0]).toBe('non-finite /spec/model/parameters/temperature');
  });

  it('reports cycles, non-JSON values and unpaired surrogates without throwing', () => {
    const spec: Record<string, unknown> = { role: { instructions: 'x\udc00' } };
    spec.self = spec;
    const doc = { ...profile(), spec, extra: () => 1 };
    const got = codes(checkProfileRules(doc));
    expect(got).toEqual(
      expect.arrayContaining(['other.cycle /spec/self', 'other.not-json /extra', 'other.lone-surrogate /spec/role/instructions']),
    );
  });
});

describe('issue order', () => {
  it('is deterministic: by category rank, then pointer with numeric indices, then code', () => {
    const doc = profile(
      {
        tools: {
          mcp_servers: Array.from({ length: 11 }, (_, i) => ({ name: `s${i}`, transport: 'stdio', command: 'c', env: { K: 'lit' } })),
        },
      },
      { oap: '1.1', extra: true },
    );
    const got = validateDocument(doc).issues;
    expect(got[0]?.code).toBe('version-minor');
    const literalPointers = got.filter((i) => i.code === 'secret-literal.env').map((i) => i.pointer);
    expect(literalPointers[1]).toBe('/spec/tools/mcp_servers/1/env/K');
    expect(literalPointers[10]).toBe('/spec/tools/mcp_servers/10/env/K');
    const firstSchema = got.findIndex((i) => i.code.startsWith('schema.'));
    expect(got.slice(firstSchema).every((i) => i.code.startsWith('schema.'))).toBe(true);
    expect(validateDocument(structuredClone(doc)).issues).toEqual(got);
  });
});
