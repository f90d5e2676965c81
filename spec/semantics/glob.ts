/**
 * The tool-name glob dialect (SPEC §3.4 "Names MAY be globs").
 *
 * Reading (INTERPRETATIONS.md#glob-dialect): tool names are `/`-separated
 * paths (`git/diff`, `mcp/github/create_issue`, the §3.4 convention), so globs follow path rules:
 *
 * | pattern          | name                   | matches | why                                  |
 * | ---------------- | ---------------------- | ------- | ------------------------------------ |
 * | `*`              | `read`                 | yes     | one segment                          |
 * | `*`              | `git/diff`             | no      | `*` stays inside one segment         |
 * | `*`              | `.hidden`              | yes     | a leading `.` is an ordinary letter  |
 * | `*` + `/*`       | `git/diff`             | yes     | two segments                         |
 * | `**`             | `mcp/github/issues`    | yes     | `**` crosses segments                |
 * | `mcp/github/*`   | `mcp/github/issues`    | yes     | every tool of one MCP server (§3.4)  |
 * | `mcp/github/*`   | `mcp/github/a/b`       | no      | one segment only                     |
 * | `git/?iff`       | `git/diff`             | yes     | `?` is one character of a segment    |
 * | `web/[fx]etch`   | `web/fetch`            | yes     | classes                              |
 * | `{read,edit}`    | `read`                 | no      | no brace expansion: a literal name   |
 * | `+(a)`           | `a`                    | no      | no extglobs                          |
 *
 * The harness policy's `tools.grant` globs are the protocol's own format (protocol/PROTOCOL.md), so
 * this dialect is normative for them. The spec fixes no dialect for a profile's `allow`/`deny`, so
 * cases and generators give profiles only patterns every dialect reads alike (literal names,
 * `seg/*`, `mcp/<server>/*`), and one-sided bounds on the profile side take the most permissive
 * reading.
 */
import picomatch from 'picomatch';

const OPTIONS = { dot: true, nobrace: true, noextglob: true } as const;

const matchers = new Map<string, (name: string) => boolean>();

function matcher(pattern: string): (name: string) => boolean {
  let m = matchers.get(pattern);
  if (m === undefined) {
    m = picomatch(pattern, OPTIONS);
    matchers.set(pattern, m);
  }
  return m;
}

/** Does the glob (or literal name) `pattern` select `name`? */
export function globMatch(pattern: string, name: string): boolean {
  // An empty pattern names no tool (the catalogue's glob.tool-names/empty-pattern); the compiler refuses it.
  return pattern === name || (pattern !== '' && matcher(pattern)(name));
}

/** Does any of `patterns` select `name`? */
export function matchesAny(patterns: readonly string[], name: string): boolean {
  return patterns.some((p) => globMatch(p, name));
}

/** Does `s` use glob syntax at all (`*`, `?` or a class)? Braces are literal in this dialect. */
export function isGlob(s: string): boolean {
  return /[*?[\]]/.test(s);
}
