/**
 * Tool-name globs (SPEC §3.4). Tool names are `/`-separated paths (`git/diff`,
 * `mcp/github/create_issue`), so globs follow path semantics: `*` matches within one segment and
 * never crosses `/`, `**` crosses segments. `mcp/github/*` therefore selects every tool of the
 * github server and nothing else, and a policy that grants `*` grants only top-level tools.
 */
import picomatch from 'picomatch';

const cache = new Map<string, (s: string) => boolean>();

export function globMatcher(glob: string): (s: string) => boolean {
  let m = cache.get(glob);
  if (!m) {
    m = picomatch(glob, { dot: true, nobrace: true, noextglob: true });
    cache.set(glob, m);
  }
  return m;
}

export function matchesAny(globs: readonly string[], name: string): boolean {
  return globs.some((g) => globMatcher(g)(name));
}

export function isGlob(s: string): boolean {
  return /[*?[\]]/.test(s);
}
