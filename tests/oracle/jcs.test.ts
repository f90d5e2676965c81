import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CanonicalizationError,
  canonicalJson,
  documentDigest,
  parseDocument,
  profileDigest,
  sha256Hex,
  specDigest,
  type Encoding,
} from '../../spec/document/index.js';
import { fromRoot } from '../../spec/package-root.js';

function parsed(text: string, encoding: Encoding = 'json'): unknown {
  const r = parseDocument(text, encoding);
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return r.value;
}

/**
 * SPEC Appendix B: logical JSON value (as written, parsed by our JSON and YAML readers) → UTF-8
 * JCS bytes → SHA-256. The hashes were computed independently of this code (coreutils sha256sum
 * over the canonical text).
 */
const APPENDIX_B = [
  {
    file: 'appendix-b-1.json',
    source: '{"b":2,"a":1}',
    yaml: '{b: 2, a: 1}',
    canonical: '{"a":1,"b":2}',
    sha256: '43258cff783fe7036d8a43033f830adfc60ec037382473548ac742b888292777',
  },
  {
    file: 'appendix-b-2.json',
    source: '{"n":1.0}',
    yaml: 'n: 1.0',
    canonical: '{"n":1}',
    sha256: '2bfd14f43d17fc7cea24e0917a8879b4b2f880b8baeec1b9d90fbaad655e71bd',
  },
  {
    file: 'appendix-b-3.json',
    source: '{"s":"é","z":-0.0}',
    yaml: 's: é\nz: -0.0',
    canonical: '{"s":"é","z":0}',
    sha256: '10010dc4ceacb6da17cd992ce8dffbdc8ba51cc681def9533744f3a575157215',
  },
];

describe('SPEC Appendix B digest vectors', () => {
  it.each(APPENDIX_B)('$source → $canonical', (v) => {
    for (const value of [parsed(v.source), parsed(v.yaml, 'yaml')]) {
      const canonical = canonicalJson(value);
      expect(canonical).toBe(v.canonical);
      expect(sha256Hex(Buffer.from(canonical, 'utf8'))).toBe(v.sha256);
      expect(documentDigest(value)).toBe(`sha256:${v.sha256}`);
    }
  });

  it.each(APPENDIX_B)('fixture digest/$file holds $source', (v) => {
    const text = readFileSync(fromRoot('fixtures', 'documents', 'digest', v.file), 'utf8');
    expect(text.trim()).toBe(v.source);
  });

  it('hashes the UTF-8 bytes: é is two bytes', () => {
    expect(Buffer.from(canonicalJson(parsed('{"s":"é"}')), 'utf8')).toEqual(
      Buffer.from([0x7b, 0x22, 0x73, 0x22, 0x3a, 0x22, 0xc3, 0xa9, 0x22, 0x7d]),
    );
  });
});

function float64(hex: string): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setBigUint64(0, BigInt(`0x${hex}`));
  return view.getFloat64(0);
}

// RFC 8785 Appendix B: IEEE 754 bit patterns and their required serialisation.
const RFC8785_NUMBERS: Array<[string, string]> = [
  ['0000000000000000', '0'],
  ['8000000000000000', '0'],
  ['0000000000000001', '5e-324'],
  ['8000000000000001', '-5e-324'],
  ['7fefffffffffffff', '1.7976931348623157e+308'],
  ['ffefffffffffffff', '-1.7976931348623157e+308'],
  ['4340000000000000', '9007199254740992'],
  ['c340000000000000', '-9007199254740992'],
  ['4430000000000000', '295147905179352830000'],
  ['44b52d02c7e14af5', '9.999999999999997e+22'],
  ['44b52d02c7e14af6', '1e+23'],
  ['44b52d02c7e14af7', '1.0000000000000001e+23'],
  ['444b1ae4d6e2ef4e', '999999999999999700000'],
  ['444b1ae4d6e2ef4f', '999999999999999900000'],
  ['444b1ae4d6e2ef50', '1e+21'],
  ['3eb0c6f7a0b5ed8c', '9.999999999999997e-7'],
  ['3eb0c6f7a0b5ed8d', '0.000001'],
  ['41b3de4355555553', '333333333.3333332'],
  ['41b3de4355555554', '333333333.33333325'],
  ['41b3de4355555555', '333333333.3333333'],
  ['41b3de4355555556', '333333333.3333334'],
  ['41b3de4355555557', '333333333.33333343'],
  ['becbf647612f3696', '-0.0000033333333333333333'],
  ['43143ff3c1cb0959', '1424953923781206.2'],
];

describe('RFC 8785 number serialisation', () => {
  it.each(RFC8785_NUMBERS)('0x%s → %s', (hex, expected) => {
    expect(canonicalJson(float64(hex))).toBe(expected);
  });

  it.each([
    ['1e21', '1e+21'],
    ['1e-7', '1e-7'],
    ['9007199254740993', '9007199254740992'],
    ['-0.0', '0'],
    ['4.50', '4.5'],
    ['2e-3', '0.002'],
    ['0.000000000000000000000000001', '1e-27'],
    ['1E30', '1e+30'],
  ])('JSON text %s parses and canonicalises to %s', (text, expected) => {
    expect(canonicalJson(parsed(text))).toBe(expected);
  });

  it.each([
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['-Infinity', Number.NEGATIVE_INFINITY],
  ])('refuses %s with code non-finite and a pointer instead of emitting null', (_label, n) => {
    let caught: unknown;
    try {
      canonicalJson({ a: [1, { b: n }] });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(CanonicalizationError);
    expect((caught as CanonicalizationError).code).toBe('non-finite');
    expect((caught as CanonicalizationError).pointer).toBe('/a/1/b');
  });
});

describe('RFC 8785 key ordering and strings', () => {
  it('sorts keys by UTF-16 code units, not code points (§3.2.3)', () => {
    const value = {
      '\u20ac': 'Euro Sign',
      '\r': 'Carriage Return',
      '\ufb33': 'Hebrew Letter Dalet With Dagesh',
      '1': 'One',
      '\u{1F600}': 'Emoji: Grinning Face',
      '\u0080': 'Control',
      '\u00f6': 'Latin Small Letter O With Diaeresis',
    };
    expect(canonicalJson(value)).toBe(
      '{"\\r":"Carriage Return","1":"One","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis",' +
        '"\u20ac":"Euro Sign","\u{1F600}":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}',
    );
    // U+1F600 is D83D DE00 in UTF-16, which sorts before U+FB33 although its code point is larger.
    expect(canonicalJson({ '\ufb33': 1, '\u{1F600}': 2 })).toBe('{"\u{1F600}":2,"\ufb33":1}');
  });

  it('sorts nested objects and keeps array order', () => {
    expect(canonicalJson({ z: [{ b: 1, a: 2 }, 3], a: { d: null, c: true } })).toBe('{"a":{"c":true,"d":null},"z":[{"a":2,"b":1},3]}');
  });

  it('escapes strings as RFC 8785 §3.2.2.2 requires (RFC 8785 §3.2.4 example)', () => {
    const text =
      '{"numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],' +
      ' "string": "\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/", "literals": [null, true, false]}';
    expect(canonicalJson(parsed(text))).toBe(
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
    );
  });

  it('emits non-ASCII as UTF-8, escapes only what JSON requires', () => {
    expect(canonicalJson(['é\u2028\u{1F600}', '\u0000\u001f\u007f'])).toBe('["é\u2028\u{1F600}","\\u0000\\u001f\u007f"]');
  });

  it('refuses unpaired surrogates and non-JSON values with our error', () => {
    const code = (v: unknown): string | undefined => {
      try {
        canonicalJson(v);
        return undefined;
      } catch (err) {
        return err instanceof CanonicalizationError ? `${err.code} ${err.pointer}` : 'wrong error';
      }
    };
    expect(code({ s: 'a\ud800' })).toBe('other.lone-surrogate /s');
    expect(code({ f: () => 1 })).toBe('other.not-json /f');
    expect(code({ d: new Date(0) })).toBe('other.not-json /d');
    expect(code([1n])).toBe('other.not-json /0');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(code(cyclic)).toBe('other.cycle /self');
    expect(code({ a: undefined, b: 1 })).toBeUndefined();
  });
});

describe('JCS properties', () => {
  const normalise = (v: unknown): unknown => JSON.parse(JSON.stringify(v));

  it('round-trips: parsing the canonical form gives the same value, and is a fixpoint', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const c = canonicalJson(v);
        expect(JSON.parse(c)).toEqual(normalise(v));
        expect(canonicalJson(parsed(c))).toBe(c);
      }),
    );
  });

  it('does not depend on key insertion order', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (obj) => {
        const reversed = Object.fromEntries(Object.entries(obj).reverse());
        expect(canonicalJson(reversed)).toBe(canonicalJson(obj));
      }),
    );
  });
});

describe('profile and spec digests (SPEC §2.2)', () => {
  const profile = {
    oap: '1.0',
    kind: 'AgentProfile',
    metadata: { name: 'p', description: 'd', revision: 3, updated_at: '2026-01-01T00:00:00Z', trust: 'project' },
    spec: { role: { instructions: 'x' } },
    state: { summary: 'one' },
  };

  it('profile digest covers the whole document including state', () => {
    expect(profileDigest(profile)).toBe(documentDigest(profile));
    expect(profileDigest({ ...profile, state: { summary: 'two' } })).not.toBe(profileDigest(profile));
  });

  it('spec digest is over {metadata minus revision/updated_at/trust, spec}', () => {
    const expected = documentDigest({ metadata: { name: 'p', description: 'd' }, spec: profile.spec });
    expect(specDigest(profile)).toBe(expected);
    const rewritten = {
      ...profile,
      metadata: { ...profile.metadata, revision: 4, updated_at: '2026-02-01T00:00:00Z', trust: 'managed' },
      state: { summary: 'learned more' },
      history: [{ revision: 4, at: '2026-02-01T00:00:00Z' }],
    };
    expect(specDigest(rewritten)).toBe(expected);
    expect(specDigest({ ...profile, metadata: { ...profile.metadata, description: 'changed' } })).not.toBe(expected);
  });

  it('spec digest needs metadata and spec', () => {
    expect(() => specDigest({ spec: {} })).toThrow(CanonicalizationError);
    expect(() => specDigest({ metadata: {} })).toThrow(CanonicalizationError);
  });
});
