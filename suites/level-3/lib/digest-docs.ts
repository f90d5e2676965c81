/**
 * Seeded generator of schema-valid profiles with content that is awkward to canonicalise
 * (RFC 8785): keys outside the BMP (UTF-16 order differs from code-point order), composed and
 * decomposed accents, escapes, number spellings JCS must normalise (1.0, -0, 1e21, 1E+21, 5e-324,
 * integers beyond 2^53), deep nesting, and state and history present. Numbers are emitted as raw
 * text, so the adapter sees exactly the spelling we chose, and the oracle parses the same text.
 */
import { stringify as yamlStringify } from 'yaml';
import { mulberry32 } from '../../kit/random.js';

/** A JSON value whose numbers keep their source spelling. */
type Raw = { num: string } | string | boolean | null | Raw[] | { obj: Array<[string, Raw]> };

const WILD_NUMBERS = [
  '1.0',
  '1e21',
  '1E+21',
  '-0',
  '-0.0',
  '0.1',
  '1e-7',
  '5e-324',
  '1.7976931348623157e308',
  '123456789012345678901',
  '9007199254740993',
  '100',
  '-42',
  '2.5E2',
  '0.000001',
  '1e+2',
  '333333333.33333329',
  '4.35',
  '0',
];
const UNIT_NUMBERS = ['0', '1', '1.0', '0.5', '5e-1', '0.25', '1e-1', '0.999'];
const KEYS = [
  'a',
  'b',
  'B',
  'é',
  'e\u0301',
  '\uFB01',
  '\u{1F600}',
  '\u{1D11E}',
  '\u20AC',
  '',
  ' ',
  'key with space',
  '\u00e4pfel',
  '\u0000nul',
  'z',
  '10',
  '2',
  'Ω',
  '\u{10FFFF}',
  'tab\there',
  'quote"in',
  'back\\slash',
];
const TEXTS = [
  'plain words',
  'caf\u00e9 cr\u00e8me',
  'emoji \u{1F680} launch',
  'line\nbreak',
  'tab\tin',
  'quote " and \\ backslash',
  '\u2028separator\u2029',
  '</script>',
  'control \u0001 char',
  'RTL \u05e9\u05dc\u05d5\u05dd',
  'ZWJ \u{1F469}\u200D\u{1F4BB}',
  'music \u{1D11E}',
];

export interface GeneratedDoc {
  /** Document text in `encoding`. */
  text: string;
  encoding: 'json' | 'yaml';
}

export function generateDigestDocs(seed: number, count: number): GeneratedDoc[] {
  const rnd = mulberry32(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const int = (lo: number, hi: number): number => lo + Math.floor(rnd() * (hi - lo + 1));

  const wild = (depth: number): Raw => {
    const r = rnd();
    if (depth >= 4 || r < 0.35) {
      const s = rnd();
      if (s < 0.5) return { num: pick(WILD_NUMBERS) };
      if (s < 0.8) return pick(TEXTS);
      if (s < 0.9) return rnd() < 0.5;
      return null;
    }
    if (r < 0.6) return Array.from({ length: int(0, 4) }, () => wild(depth + 1));
    const keys = [...new Set(Array.from({ length: int(0, 6) }, () => pick(KEYS)))];
    return { obj: keys.map((k) => [k, wild(depth + 1)] as [string, Raw]) };
  };

  // bindings[].config must be an object (schema); everything inside it is free.
  const wildObject = (depth: number): Raw => {
    const keys = [...new Set(Array.from({ length: int(1, 6) }, () => pick(KEYS)))];
    return { obj: keys.map((k) => [k, wild(depth + 1)] as [string, Raw]) };
  };

  const docs: GeneratedDoc[] = [];
  for (let i = 0; i < count; i++) {
    const annotations: Array<[string, Raw]> = [...new Set(Array.from({ length: int(1, 6) }, () => `x.example/${pick(KEYS)}`))].map((k) => [
      k,
      pick(TEXTS),
    ]);
    const facts: Raw[] = Array.from({ length: int(0, 3) }, (_, j) => ({
      obj: [
        ['id', `fact-${i}-${j}`],
        ['text', pick(TEXTS)],
        ['confidence', { num: pick(UNIT_NUMBERS) }],
      ],
    }));
    const doc: Raw = {
      obj: [
        ...(rnd() < 0.5
          ? ([
              ['kind', 'AgentProfile'],
              ['oap', '1.0'],
            ] as Array<[string, Raw]>)
          : ([
              ['oap', '1.0'],
              ['kind', 'AgentProfile'],
            ] as Array<[string, Raw]>)),
        [
          'metadata',
          {
            obj: [
              ['name', `g2-doc-${i}`],
              ['description', `Digest differential document ${i}: ${pick(TEXTS)}`],
              ['revision', { num: String(int(1, 40)) }],
              ['updated_at', '2026-03-04T05:06:07Z'],
              ['annotations', { obj: annotations }],
            ],
          },
        ],
        [
          'spec',
          {
            obj: [
              [
                'role',
                {
                  obj: [
                    ['instructions', `Instructions ${i}: ${pick(TEXTS)}\n`],
                    ['objectives', [pick(TEXTS), pick(TEXTS)]],
                  ],
                },
              ],
              [
                'model',
                {
                  obj: [
                    [
                      'parameters',
                      {
                        obj: [
                          ['temperature', { num: pick(['0', '1.0', '0.7', '2', '1e0', '2.0E0']) }],
                          ['seed', { num: pick(['0', '-0', '7', '9007199254740991', '-123456789']) }],
                        ],
                      },
                    ],
                  ],
                },
              ],
              [
                'tools',
                {
                  obj: [
                    ['allow', ['read', 'search']],
                    [
                      'bindings',
                      [
                        {
                          obj: [
                            ['name', 'read'],
                            ['config', wildObject(0)],
                          ],
                        },
                        {
                          obj: [
                            ['name', 'search'],
                            ['config', { obj: [['nested', wild(1)]] }],
                          ],
                        },
                      ],
                    ],
                  ],
                },
              ],
              ['runtime', { obj: [['max_cost_usd', { num: pick(['0.5', '1e2', '12.50', '1E-2']) }]] }],
            ],
          },
        ],
        [
          'state',
          {
            obj: [
              ['summary', pick(TEXTS)],
              ['facts', facts],
              [
                'metrics',
                {
                  obj: [
                    ['total_cost_usd', { num: pick(['1e21', '0.1', '12345678.9', '0']) }],
                    ['sessions', { num: String(int(0, 99)) }],
                  ],
                },
              ],
            ],
          },
        ],
        [
          'history',
          [
            {
              obj: [
                ['revision', { num: '1' }],
                ['at', '2026-01-01T00:00:00Z'],
                ['change', pick(TEXTS)],
              ],
            },
          ],
        ],
      ],
    };
    const json = emit(doc);
    // Every fifth document goes as YAML (re-serialised from the parsed JSON) for variety.
    docs.push(
      i % 5 === 4
        ? { text: yamlStringify(JSON.parse(json), { version: '1.2', lineWidth: 0 }), encoding: 'yaml' }
        : { text: json, encoding: 'json' },
    );
  }
  return docs;
}

function emit(v: Raw): string {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return String(v);
  if (typeof v === 'string') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(emit).join(', ')}]`;
  if ('num' in v) return v.num;
  return `{${v.obj.map(([k, x]) => `${JSON.stringify(k)}: ${emit(x)}`).join(', ')}}`;
}
