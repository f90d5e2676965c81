/**
 * Network host patterns (SPEC §3.5 `allow_hosts`, §7.2 "network hosts").
 *
 * Reading (INTERPRETATIONS.md#hosts): a pattern is an exact host,
 * `*.suffix` (every host strictly below `suffix`, not `suffix` itself) or a bare `*` (every host).
 * The policy format says "Exact hosts or *.domain patterns" (protocol/PROTOCOL.md); a bare `*` is
 * read as "any host", the only meaning a wildcard with no suffix can have. Hosts are DNS names, so
 * they compare case-insensitively, with one trailing dot (the root label) ignored and Unicode
 * labels mapped to ASCII (IDNA, RFC 5891) so that `bücher.de` and `xn--bcher-kva.de` are one host.
 *
 * | pattern          | host               | matches |
 * | ---------------- | ------------------ | ------- |
 * | `api.example.com`| `API.example.com.` | yes     |
 * | `*.example.net`  | `a.b.example.net`  | yes     |
 * | `*.example.net`  | `example.net`      | no      |
 * | `*`              | `a.com`            | yes     |
 */
import { domainToASCII } from 'node:url';

/** The comparable form of a host or pattern: ASCII (IDNA), lower case, no trailing dot. */
export function canonicalHost(host: string): string {
  const bare = host.endsWith('.') ? host.slice(0, -1) : host;
  const wildcard = bare.startsWith('*.');
  const name = wildcard ? bare.slice(2) : bare;
  // domainToASCII answers '' for what is not a domain; such a name only ever equals itself.
  const ascii = name === '*' ? '*' : domainToASCII(name) || name.toLowerCase();
  return wildcard ? `*.${ascii}` : ascii;
}

/** Does `pattern` allow the concrete `host`? */
export function hostMatches(pattern: string, host: string): boolean {
  const p = canonicalHost(pattern);
  const h = canonicalHost(host);
  if (p === '*') return true;
  if (p.startsWith('*.')) {
    const suffix = p.slice(1);
    return h.endsWith(suffix) && h.length > suffix.length;
  }
  return h === p;
}

/** Does `outer` allow every host `inner` (an exact host or a pattern) can match? */
export function hostCovered(inner: string, outer: string): boolean {
  const i = canonicalHost(inner);
  const o = canonicalHost(outer);
  if (o === '*' || i === o) return true;
  if (i === '*') return false;
  if (i.startsWith('*.')) {
    // Every host strictly below `t` lies below `s` exactly when `t` is `s` or below it.
    return o.startsWith('*.') && i.slice(1).endsWith(o.slice(1));
  }
  return hostMatches(o, i);
}

/** Is `host` allowed by any of `patterns`? */
export function hostsAllowed(patterns: readonly string[], host: string): boolean {
  return patterns.some((p) => hostMatches(p, host));
}

/**
 * A profile's `allow_hosts` as a request: an absent or empty list asks for the harness default
 * (schema: "Empty with network=allow means harness default"), i.e. requests nothing narrower.
 */
export function requestedHosts(allowHosts: readonly string[] | undefined): readonly string[] | undefined {
  return allowHosts === undefined || allowHosts.length === 0 ? undefined : allowHosts;
}
