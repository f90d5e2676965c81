import { describe, expect, it } from 'vitest';
import { type Intersection, intersectHosts, intersectRoots } from '../../../spec/semantics/index.js';

const kept = (...value: string[]): Intersection => ({ value, adjustments: [] });

describe('intersectRoots (SPEC §7.2 "filesystem roots"; INTERPRETATIONS.md, roots)', () => {
  it.each<[string, string[] | undefined, string[], Intersection]>([
    ['nothing requested: the ceiling', undefined, ['src', 'docs'], kept('src', 'docs')],
    ['an empty request asks for no root', [], ['.'], kept()],
    ['a root inside a ceiling root is kept', ['src/a'], ['src'], kept('src/a')],
    ['kept with its own spelling', ['./src/'], ['src'], kept('./src/')],
    ['the same root', ['src'], ['src'], kept('src')],
    [
      'a wider root is narrowed to the ceiling roots inside it',
      ['.'],
      ['src', 'docs'],
      {
        value: ['src', 'docs'],
        adjustments: [
          { index: 0, requested: '.', action: 'narrowed', effective: ['src', 'docs'], reason: 'only the parts inside the permitted roots' },
        ],
      },
    ],
    [
      'a root beside every ceiling root is dropped',
      ['vendor'],
      ['src'],
      { value: [], adjustments: [{ index: 0, requested: 'vendor', action: 'dropped', reason: 'outside every permitted root' }] },
    ],
    [
      'a root climbing out of the workspace is dropped',
      ['../x'],
      ['.'],
      { value: [], adjustments: [{ index: 0, requested: '../x', action: 'dropped', reason: 'outside every permitted root' }] },
    ],
    [
      'srcx is not inside src (whole segments)',
      ['srcx'],
      ['src'],
      { value: [], adjustments: [{ index: 0, requested: 'srcx', action: 'dropped', reason: 'outside every permitted root' }] },
    ],
    [
      'indexes are those of the request; duplicates collapse',
      ['src', 'vendor', 'src/a'],
      ['src'],
      {
        value: ['src', 'src/a'],
        adjustments: [{ index: 1, requested: 'vendor', action: 'dropped', reason: 'outside every permitted root' }],
      },
    ],
    [
      'two wide roots narrowed to the same ceiling root give it once',
      ['.', './'],
      ['src'],
      {
        value: ['src'],
        adjustments: [
          { index: 0, requested: '.', action: 'narrowed', effective: ['src'], reason: 'only the parts inside the permitted roots' },
          { index: 1, requested: './', action: 'narrowed', effective: ['src'], reason: 'only the parts inside the permitted roots' },
        ],
      },
    ],
    ['a glob root within its fixed prefix', ['src/*.ts'], ['src'], kept('src/*.ts')],
    [
      'an empty ceiling leaves nothing',
      ['src'],
      [],
      { value: [], adjustments: [{ index: 0, requested: 'src', action: 'dropped', reason: 'outside every permitted root' }] },
    ],
  ])('%s', (_, requested, limit, want) => expect(intersectRoots(requested, limit)).toEqual(want));

  it('maps absolute roots inside the workspace back to relative ones', () =>
    expect(intersectRoots(['/ws/src'], ['src'], '/ws')).toEqual(kept('/ws/src')));
});

describe('intersectHosts (SPEC §7.2 "network hosts"; INTERPRETATIONS.md, hosts)', () => {
  it.each<[string, string[] | undefined, string[], Intersection]>([
    ['absent: the ceiling', undefined, ['api.example.com'], kept('api.example.com')],
    ['empty is the harness default: the ceiling', [], ['api.example.com'], kept('api.example.com')],
    ['an exact host the ceiling allows', ['api.example.com'], ['api.example.com', '*.example.net'], kept('api.example.com')],
    ['a host below a ceiling wildcard', ['a.example.net'], ['*.example.net'], kept('a.example.net')],
    ['kept with its own spelling', ['API.Example.com.'], ['api.example.com'], kept('API.Example.com.')],
    [
      'a wildcard narrowed to the ceiling hosts below it',
      ['*.example.net'],
      ['a.example.net', 'b.example.net', 'api.example.com'],
      {
        value: ['a.example.net', 'b.example.net'],
        adjustments: [
          {
            index: 0,
            requested: '*.example.net',
            action: 'narrowed',
            effective: ['a.example.net', 'b.example.net'],
            reason: 'only the hosts the ceiling allows',
          },
        ],
      },
    ],
    [
      'the apex is not below its wildcard',
      ['example.net'],
      ['*.example.net'],
      { value: [], adjustments: [{ index: 0, requested: 'example.net', action: 'dropped', reason: 'host not allowed' }] },
    ],
    [
      'a bare * narrowed to the whole ceiling',
      ['*'],
      ['*.example.net'],
      {
        value: ['*.example.net'],
        adjustments: [
          { index: 0, requested: '*', action: 'narrowed', effective: ['*.example.net'], reason: 'only the hosts the ceiling allows' },
        ],
      },
    ],
    ['a bare * ceiling keeps every request', ['evil.example.org', '*.x.net'], ['*'], kept('evil.example.org', '*.x.net')],
    [
      'an empty ceiling allows no host',
      ['api.example.com'],
      [],
      { value: [], adjustments: [{ index: 0, requested: 'api.example.com', action: 'dropped', reason: 'host not allowed' }] },
    ],
  ])('%s', (_, requested, limit, want) => expect(intersectHosts(requested, limit)).toEqual(want));
});
