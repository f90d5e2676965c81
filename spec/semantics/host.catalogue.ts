/**
 * Boundary catalogue of network hosts (rule: ./host.ts hostMatches, hostCovered, requestedHosts;
 * SPEC §3.5 `allow_hosts`, §7.2; L1-I3, L3-B1, L3-E1).
 */
import { type Dimension, dimension } from './catalogue-model.js';

const p = 'profile:/spec/permissions/allow_hosts';
const q = 'policy:/network/allow_hosts';

export const HOST_CATALOGUE: readonly Dimension[] = [
  dimension({
    id: 'network.hosts',
    title: 'Reachable hosts: profile allow_hosts ∩ policy allow_hosts',
    rule: 'spec/semantics/host.ts',
    requirements: ['L1-I3', 'L3-B1', 'L3-E1'],
    reads: {
      profile: ['/spec/permissions/allow_hosts', '/spec/permissions/network'],
      policy: ['/network/allow_hosts', '/permissions/network'],
      parent: ['/hosts'],
      base: ['/spec/permissions/allow_hosts'],
    },
    meets: ['profile-policy', 'parent-child', 'base-derived'],
    families: {
      presence: [
        {
          slug: 'absent-or-empty',
          description: 'no allow_hosts, and `allow_hosts: []`, in the profile',
          values: [
            { [p]: undefined, [q]: ['api.example.com'] },
            { [p]: [], [q]: ['api.example.com'] },
          ],
          predicts: 'the policy hosts (schema: "Empty with network=allow means harness default")',
          next: ['alone-narrows'],
        },
        {
          slug: 'alone-narrows',
          description: 'allow_hosts without any `network` decision in the profile',
          values: [
            { [p]: ['api.example.com'], 'profile:/spec/permissions/network': undefined, [q]: ['api.example.com', 'docs.example.org'] },
          ],
          predicts: 'only api.example.com: the list narrows on its own',
        },
        {
          slug: 'policy-empty',
          description: 'the policy allows no host',
          values: [{ [p]: ['api.example.com'], [q]: [] }],
          predicts: 'no host is reachable',
        },
      ],
      numeric: [
        {
          slug: 'ip-literals',
          description: 'IPv4 literal and a zero-padded spelling of it; an IPv6 literal',
          values: [
            { [p]: ['127.0.0.01'], [q]: ['127.0.0.1'] },
            { [p]: ['[::1]'], [q]: ['::1'] },
          ],
          predicts: "no host beyond the policy's; whether the spellings are one host is not decided by the spec",
          exclusion: 'the protocol says hosts are "Exact hosts or *.domain patterns"; IP literal canonicalisation is unspecified',
        },
      ],
      text: [
        {
          slug: 'letter-case',
          description: '`API.Example.com` against `api.example.com`',
          values: [{ [p]: ['API.Example.com'], [q]: ['api.example.com'] }],
          predicts: 'one host (DNS names compare case-insensitively): reachable',
        },
        {
          slug: 'idna',
          description: '`bücher.de` against `xn--bcher-kva.de`',
          values: [{ [p]: ['bücher.de'], [q]: ['xn--bcher-kva.de'] }],
          predicts: 'one host (IDNA, RFC 5891): reachable',
        },
        {
          slug: 'port-suffix',
          description: '`api.example.com:443` is not a host pattern',
          values: [{ [p]: ['api.example.com:443'], [q]: ['api.example.com'] }],
          predicts: 'names no host of the policy: the profile request covers nothing (no host reachable beyond the intersection)',
        },
      ],
      separators: [
        {
          slug: 'trailing-dot',
          description: '`api.example.com.` (the root label) against `api.example.com`',
          values: [{ [p]: ['api.example.com.'], [q]: ['api.example.com'] }],
          predicts: 'one host: reachable',
        },
        {
          slug: 'leading-dot',
          description: '`.example.com` (a suffix in some dialects)',
          values: [{ [p]: ['.example.com'], [q]: ['*.example.com'] }],
          predicts: 'not a pattern of the protocol: at most the hosts both sides name',
          exclusion: 'the spec and the protocol give `.domain` no meaning',
        },
      ],
      wildcards: [
        {
          slug: 'star-dot-excludes-apex',
          description: '`*.example.net` against `example.net` and `a.b.example.net`',
          values: [
            { [p]: ['example.net'], [q]: ['*.example.net'] },
            { [p]: ['a.b.example.net'], [q]: ['*.example.net'] },
          ],
          predicts: 'the apex is not covered (not reachable); hosts any depth below are',
          next: ['bare-star'],
        },
        {
          slug: 'bare-star',
          description: 'a bare `*` on either side',
          values: [
            { [p]: ['api.example.com'], [q]: ['*'] },
            { [p]: ['*'], [q]: ['api.example.com'] },
          ],
          predicts: 'policy `*` allows any host; a profile `*` asks for all, which narrows to the policy list',
        },
        {
          slug: 'profile-wildcard-under-exact-policy',
          description: 'the profile asks `*.example.com`, the policy names `a.example.com` only',
          values: [{ [p]: ['*.example.com'], [q]: ['a.example.com'] }],
          predicts: 'only a.example.com: the profile pattern cannot widen an exact policy host',
        },
        {
          slug: 'wildcard-mid-label',
          description: '`a.*.com`, `**.example.com`, `*example.com`',
          values: [{ [p]: ['a.*.com'], [q]: ['*.com'] }],
          predicts: 'not patterns of the protocol: literal names that match nothing',
          exclusion: 'the protocol knows only exact hosts and `*.domain`',
        },
      ],
      escaping: 'host names have no escape syntax; percent-encoded hosts are not DNS names (IDNA is the text family)',
      duplicates: [
        {
          slug: 'same-host-twice',
          description: 'a host twice, and an exact host next to a wildcard covering it',
          values: [{ [p]: ['a.example.net', 'a.example.net', '*.example.net'], [q]: ['*.example.net'] }],
          predicts: 'the same reachable set as without the duplicates',
        },
      ],
      order: 'a host list is a set: order does not matter',
      links: [
        {
          slug: 'parent-hosts-cap-child',
          description: 'a subagent asking for a host the policy allows but its parent did not get',
          values: [{ 'parent:/hosts': ['api.example.com'], [p]: ['docs.example.org'], [q]: ['api.example.com', 'docs.example.org'] }],
          predicts: 'docs.example.org is not reachable (L3-B1)',
        },
        {
          slug: 'derived-replaces-base-list',
          description: 'the base narrows to one host; the derived layer lists another',
          values: [{ 'base:/spec/permissions/allow_hosts': ['api.example.com'], [p]: ['docs.example.org'] }],
          predicts: 'the merged list is the derived one (arrays replace), intersected with the policy',
        },
      ],
    },
  }),
];
