import { describe, expect, it } from 'vitest';
import { canonicalHost, hostCovered, hostMatches, hostsAllowed, requestedHosts } from '../../../spec/semantics/index.js';

describe('host patterns (SPEC §3.5 allow_hosts; INTERPRETATIONS.md, hosts)', () => {
  it.each([
    ['api.example.com', 'api.example.com', true, 'exact host'],
    ['api.example.com', 'API.Example.COM', true, 'case-insensitive'],
    ['api.example.com', 'api.example.com.', true, 'one trailing dot ignored'],
    ['api.example.com.', 'api.example.com', true, 'trailing dot on the pattern'],
    ['api.example.com', 'evil.example.com', false, 'another host'],
    ['*.example.net', 'cdn.example.net', true, 'below the suffix'],
    ['*.example.net', 'a.b.example.net', true, 'any depth below'],
    ['*.example.net', 'example.net', false, 'not the apex'],
    ['*.example.net', 'badexample.net', false, 'whole labels only'],
    ['*.example.net', 'example.net.evil.org', false, 'suffix, not substring'],
    ['*', 'a.com', true, 'bare * is every host'],
    ['*', 'localhost', true, 'bare * is every host'],
    ['bücher.de', 'xn--bcher-kva.de', true, 'IDNA: Unicode and ASCII labels are one host'],
    ['*.xn--bcher-kva.de', 'shop.bücher.de', true, 'IDNA below a wildcard'],
  ])('hostMatches(%j, %j) = %s (%s)', (pattern, host, want) => expect(hostMatches(pattern, host)).toBe(want));

  it.each([
    ['a.example.net', '*.example.net', true, 'an exact host below the wildcard'],
    ['*.a.example.net', '*.example.net', true, 'a narrower wildcard'],
    ['*.example.net', '*.example.net', true, 'the same wildcard'],
    ['*.example.net', '*.a.example.net', false, 'a wider wildcard'],
    ['example.net', '*.example.net', false, 'the apex is not covered'],
    ['*.com', 'api.example.com', false, 'a wildcard is not covered by one host'],
    ['anything.org', '*', true, 'bare * covers every host'],
    ['*', '*', true, 'bare * covers itself'],
    ['*', '*.com', false, 'nothing but * covers *'],
    ['API.example.com', 'api.example.com', true, 'case-insensitive'],
  ])('hostCovered(%j, %j) = %s (%s)', (inner, outer, want) => expect(hostCovered(inner, outer)).toBe(want));

  it.each([
    [['api.example.com', '*.example.net'], 'img.example.net', true],
    [[], 'a.com', false],
  ])('hostsAllowed(%j, %j) = %s', (patterns, host, want) => expect(hostsAllowed(patterns, host)).toBe(want));

  it.each([
    ['Bücher.DE.', 'xn--bcher-kva.de'],
    ['*.Example.NET', '*.example.net'],
    ['*', '*'],
  ])('canonicalHost(%j) = %j', (h, want) => expect(canonicalHost(h)).toBe(want));

  it.each([
    [undefined, undefined, 'absent: harness default'],
    [[], undefined, 'schema: "Empty with network=allow means harness default"'],
    [['a.com'], ['a.com'], 'a list requests itself'],
  ] as Array<[string[] | undefined, string[] | undefined, string]>)('requestedHosts(%j) = %j (%s)', (list, want) =>
    expect(requestedHosts(list)).toEqual(want),
  );
});
