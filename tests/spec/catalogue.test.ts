/**
 * The boundary catalogue (spec/semantics/catalogue.ts, issue 20 part 2) is what its method says:
 * every dimension works through every family or says why not, every class has values and a
 * prediction, neighbours exist, samples name fields the dimension reads, the schema treats each
 * profile or delta sample as the class says, policy samples are legal policies, and every field of
 * both OAP schemas and of HarnessPolicy is read by a dimension or listed as unread with a reason.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { methods } from '../../protocol/messages.js';
import { validateDeltaSchema, validateProfileSchema, validationSubject } from '../../spec/document/index.js';
import { type OapSchema, placeAt, schemaBounds, schemaPlaces } from '../../spec/document/schema-bounds.js';
import { fromRoot } from '../../spec/package-root.js';
import { CATALOGUE, coverageRows, UNREAD_FIELDS } from '../../spec/semantics/catalogue.js';
import { FAMILIES, FAMILY_QUESTIONS, MEETING_POINTS, type Sample, SIDES } from '../../spec/semantics/catalogue-model.js';
import { permissivePolicy } from '../../suites/support/policy.js';

const CLASSES = CATALOGUE.flatMap((d) => d.classes.map((c) => ({ d, c })));

/** `side:pointer` split; pointer undefined for `side:source` (document text). */
function key(k: string): { side: string; pointer: string | undefined } {
  const i = k.indexOf(':');
  const side = k.slice(0, i);
  const rest = k.slice(i + 1);
  return { side, pointer: rest === 'source' ? undefined : rest };
}

const tokens = (p: string): string[] => (p === '' ? [] : p.slice(1).split('/'));
/** Is `a` an ancestor of `b` or `b` itself, token-wise, with `*` matching any token and digits? */
function ancestorOrSelf(a: string, b: string): boolean {
  const ta = tokens(a);
  const tb = tokens(b);
  return ta.length <= tb.length && ta.every((t, i) => t === tb[i] || t === '*' || tb[i] === '*' || (/^\d+$/.test(tb[i]!) && t === '*'));
}
const related = (a: string, b: string): boolean => ancestorOrSelf(a, b) || ancestorOrSelf(b, a);

describe('the catalogue is well formed', () => {
  it('every family has its questions written down', () => {
    expect(Object.keys(FAMILY_QUESTIONS)).toEqual([...FAMILIES]);
  });

  it('dimension and class ids are unique', () => {
    expect(new Set(CATALOGUE.map((d) => d.id)).size).toBe(CATALOGUE.length);
    expect(new Set(CLASSES.map(({ c }) => c.id)).size).toBe(CLASSES.length);
  });

  it.each(CATALOGUE.map((d) => [d.id, d] as const))('%s works through every family or says why not', (_id, d) => {
    for (const f of FAMILIES) {
      const has = d.classes.some((c) => c.family === f);
      const reason = d.notApplicable[f];
      expect(has !== (reason !== undefined), `${d.id} family ${f}: classes xor a reason`).toBe(true);
      if (reason !== undefined) expect(reason.length, `${d.id} ${f} reason`).toBeGreaterThanOrEqual(12);
    }
    expect(d.classes.length).toBeGreaterThan(0);
    expect(d.rule.length).toBeGreaterThan(0);
  });

  it.each(CATALOGUE.map((d) => [d.id, d] as const))('%s names its meeting points on both sides', (_id, d) => {
    for (const m of d.meets) for (const side of MEETING_POINTS[m]) expect(d.reads[side], `${d.id} meets ${m}: reads ${side}`).toBeDefined();
  });

  it.each(CLASSES.map(({ c, d }) => [c.id, c, d] as const))('%s: values, prediction, neighbours, sample keys', (_id, c, d) => {
    expect(c.values.length).toBeGreaterThan(0);
    expect(c.description.length).toBeGreaterThan(3);
    expect(c.predicts.length).toBeGreaterThan(0);
    const ids = new Set(CLASSES.map((x) => x.c.id));
    for (const n of c.next) expect(ids.has(n), `next ${n}`).toBe(true);
    for (const sample of c.values) {
      for (const k of Object.keys(sample)) {
        const { side, pointer } = key(k);
        expect((SIDES as readonly string[]).includes(side), `side of ${k}`).toBe(true);
        if (side === 'params' || pointer === undefined) continue;
        const reads = d.reads[side as keyof typeof d.reads];
        expect(reads, `${d.id} reads no ${side} (sample ${k})`).toBeDefined();
        if (side !== 'root')
          expect(
            reads!.some((r) => related(r, pointer)),
            `${k} is not a field ${d.id} reads`,
          ).toBe(true);
      }
    }
  });
});

// ---------------------------------------------------------------- samples against the schemas

/** The document a sample describes on one side (profile, base and document are profiles), or undefined when it names none. */
function documentOf(sample: Sample, sides: readonly string[], schema: OapSchema, layered: boolean): Record<string, unknown> | undefined {
  let doc: Record<string, unknown> | undefined;
  for (const [k, v] of Object.entries(sample)) {
    const { side, pointer } = key(k);
    if (!sides.includes(side) || pointer === undefined || pointer === '') continue;
    doc = placeAt(schema, pointer, v, doc);
  }
  if (doc !== undefined && layered && doc['extends'] === undefined) doc['extends'] = [{ name: 'base' }];
  return doc;
}

function schemaIssues(sample: Sample): string[] {
  const out: string[] = [];
  const base = Object.keys(sample).some((k) => key(k).side === 'base');
  const check = (doc: Record<string, unknown> | undefined, schema: OapSchema, what: string): void => {
    if (doc === undefined) return;
    const issues = schema === 'profile' ? validateProfileSchema(validationSubject(doc)) : validateDeltaSchema(doc);
    for (const i of issues) out.push(`${what}: ${i.code} at ${i.pointer}`);
  };
  check(documentOf(sample, ['profile'], 'profile', base), 'profile', 'profile');
  check(documentOf(sample, ['base'], 'profile', false), 'profile', 'base');
  check(documentOf(sample, ['document'], 'profile', false), 'profile', 'document');
  check(documentOf(sample, ['delta'], 'delta', false), 'delta', 'delta');
  return out;
}

describe('profile and delta samples are what their class says to the schema', () => {
  it.each(CLASSES.map(({ c }) => [c.id, c] as const))('%s', (_id, c) => {
    const results = c.values.map((s) => schemaIssues(s));
    if (c.schemaInvalid)
      expect(
        results.some((r) => r.length > 0),
        'a schema-invalid class needs a value the schema refuses',
      ).toBe(true);
    else for (const r of results) expect(r).toEqual([]);
  });
});

function setPointer(doc: Record<string, unknown>, pointer: string, value: unknown): void {
  const ts = tokens(pointer);
  let cur: Record<string, unknown> = doc;
  ts.slice(0, -1).forEach((t) => {
    if (typeof cur[t] !== 'object' || cur[t] === null) cur[t] = {};
    cur = cur[t] as Record<string, unknown>;
  });
  const last = ts[ts.length - 1]!;
  if (value === undefined) delete cur[last];
  else cur[last] = value;
}

describe('policy samples are legal harness policies', () => {
  const policySchema = methods.instantiate.params.shape.policy;
  const withPolicy = CLASSES.filter(({ c }) => c.values.some((s) => Object.keys(s).some((k) => key(k).side === 'policy')));
  it.each(withPolicy.map(({ c }) => [c.id, c] as const))('%s', (_id, c) => {
    for (const sample of c.values) {
      const policy = structuredClone(permissivePolicy()) as unknown as Record<string, unknown>;
      for (const [k, v] of Object.entries(sample)) {
        const { side, pointer } = key(k);
        if (side === 'policy' && pointer !== undefined && pointer !== '') setPointer(policy, pointer, v);
      }
      const parsed = policySchema.safeParse(policy);
      expect(parsed.success, parsed.success ? '' : JSON.stringify(parsed.error.issues)).toBe(true);
    }
  });
});

// ---------------------------------------------------------------- completeness

/** Leaf places of a JSON Schema: places no other place lies below. */
function leaves(places: readonly string[]): string[] {
  return places.filter((p) => p !== '' && !places.some((q) => q !== p && q.startsWith(`${p}/`)));
}

function policyPlaces(): string[] {
  const schema = JSON.parse(readFileSync(fromRoot('protocol', 'schema', 'instantiate.params.schema.json'), 'utf8')) as {
    properties: { policy: Record<string, unknown> };
  };
  const out: string[] = [];
  const visit = (pointer: string, node: Record<string, unknown>): void => {
    out.push(pointer);
    const props = node['properties'];
    if (typeof props === 'object' && props !== null)
      for (const [k, v] of Object.entries(props)) visit(`${pointer}/${k}`, v as Record<string, unknown>);
  };
  visit('', schema.properties.policy);
  return out;
}

/** Reads that name a whole section are too wide to count a field inside it as read. */
const WHOLE = new Set(['', '/spec', '/state', '/metadata', '/history']);

function readsOf(sides: readonly string[]): string[] {
  return CATALOGUE.flatMap((d) => sides.flatMap((s) => [...(d.reads[s as keyof typeof d.reads] ?? [])])).filter((r) => !WHOLE.has(r));
}

function unreadOf(side: 'profile' | 'delta' | 'policy'): string[] {
  return UNREAD_FIELDS.filter((u) => u.side === side).flatMap((u) => [...u.pointers]);
}

describe('every field is read by a dimension or listed unread with a reason', () => {
  const cases: Array<[string, string[], string[]]> = [
    [
      'profile',
      leaves(schemaPlaces('profile').map((p) => p.pointer)),
      [...readsOf(['profile', 'base', 'document']), ...unreadOf('profile')],
    ],
    ['delta', leaves(schemaPlaces('delta').map((p) => p.pointer)), [...readsOf(['delta']), ...unreadOf('delta')]],
    ['policy', leaves(policyPlaces()), [...readsOf(['policy']), ...unreadOf('policy')]],
  ];
  it.each(cases)('%s', (_side, fields, covering) => {
    const missing = fields.filter((f) => !covering.some((r) => ancestorOrSelf(r, f)));
    expect(missing).toEqual([]);
  });

  it('unread fields are fields of their schema', () => {
    const profile = schemaPlaces('profile').map((p) => p.pointer);
    const delta = schemaPlaces('delta').map((p) => p.pointer);
    const policy = policyPlaces();
    for (const u of UNREAD_FIELDS) {
      const places = u.side === 'profile' ? profile : u.side === 'delta' ? delta : policy;
      for (const p of u.pointers) expect(places, `${u.side} ${p}`).toContain(p);
      expect(u.reason.length).toBeGreaterThan(20);
    }
  });
});

describe('numbers the catalogue takes from the schema agree with it', () => {
  it("every budget dimension's schema-maximum class names the schema maximum", () => {
    const maxima = new Map(
      schemaBounds()
        .filter((b) => b.keyword === 'maximum')
        .map((b) => [b.pointer, b.limit]),
    );
    for (const d of CATALOGUE.filter((x) => x.id.startsWith('budgets.'))) {
      const c = d.classes.find((x) => x.id.endsWith('/schema-maximum'));
      const pointer = d.reads.profile![0]!;
      expect(c === undefined, `${d.id}: schema-maximum class iff the schema has a maximum`).toBe(!maxima.has(pointer));
      if (c) expect(c.values[0]![`profile:${pointer}`]).toBe(maxima.get(pointer));
    }
  });
});

describe('coverage rows', () => {
  it('one row per class and per skipped family, each with a dimension', () => {
    const rows = coverageRows();
    const skipped = CATALOGUE.reduce((n, d) => n + Object.keys(d.notApplicable).length, 0);
    expect(rows).toHaveLength(CLASSES.length + skipped);
    for (const r of rows) expect(r.dimension.length).toBeGreaterThan(0);
    expect(rows.filter((r) => r.classId.endsWith(':not-applicable')).every((r) => r.exclusion !== undefined)).toBe(true);
  });
});
