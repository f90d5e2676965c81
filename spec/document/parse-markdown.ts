import { issue, type OapIssue } from './issue.js';
import { hasOwn, isPlainObject, setOwn, type JsonObject } from './json-data.js';
import type { ParseLimits } from './limits.js';
import type { ParseResult } from './parse-result.js';
import { parseYaml } from './parse-yaml.js';
import { LineIndex } from './source.js';

const INSTRUCTIONS_POINTER = '/spec/role/instructions';
const FENCE = /^---[ \t]*\r?$/;

/**
 * `.agent.md`: YAML frontmatter between a first line `---` and the next `---` line, then a
 * Markdown body that is `spec.role.instructions` (SPEC §2.1).
 *
 * The body is normalised the way the equivalent YAML literal block (`instructions: |`) would be,
 * so that the three encodings of one profile are the same logical document and digest alike:
 * CRLF becomes LF, leading blank lines and trailing whitespace are dropped, and a non-empty body
 * ends with exactly one newline ("clip" chomping). Everything else is kept byte for byte.
 *
 * SPEC §2.1 says frontmatter MUST NOT contain `spec.role.instructions`. Supplying it next to a
 * body is `encoding.instructions-in-both`; supplying it with an empty body is still a violation
 * (`encoding.instructions-in-frontmatter`), because the file would mean something different to a
 * reader that takes the body as the instructions.
 */
export function parseMarkdown(text: string, limits: ParseLimits): ParseResult {
  const firstBreak = text.indexOf('\n');
  const firstLine = firstBreak === -1 ? text : text.slice(0, firstBreak);
  if (!FENCE.test(firstLine)) {
    return fail(
      issue('encoding.frontmatter-missing', '', 'Markdown profile must start with a `---` frontmatter line', { line: 1, column: 1 }),
    );
  }
  const fmStart = firstBreak + 1;
  const close = findClosingFence(text, fmStart);
  if (close === undefined) {
    return fail(issue('encoding.frontmatter-unterminated', '', 'frontmatter has no closing `---` line', { line: 1, column: 1 }));
  }
  const frontmatter = parseYaml(text.slice(fmStart, close.start), limits, 1);
  if (!frontmatter.ok) return frontmatter;
  const value = frontmatter.value ?? {};
  if (!isPlainObject(value)) {
    return fail(issue('encoding.frontmatter-not-mapping', '', 'frontmatter must be a YAML mapping', { line: 2, column: 1 }));
  }

  const lines = new LineIndex(text);
  const body = normaliseBody(text.slice(close.end));
  const bodyPosition = body.text === '' ? undefined : lines.position(close.end + body.leadingOffset);
  const role = isPlainObject(value.spec) && isPlainObject(value.spec.role) ? value.spec.role : undefined;
  if (role !== undefined && hasOwn(role, 'instructions')) {
    const where = frontmatter.locate(INSTRUCTIONS_POINTER);
    return fail(
      body.text === ''
        ? issue(
            'encoding.instructions-in-frontmatter',
            INSTRUCTIONS_POINTER,
            'in Markdown encoding the body is the instructions; frontmatter must not contain spec.role.instructions',
            { ...where },
          )
        : issue(
            'encoding.instructions-in-both',
            INSTRUCTIONS_POINTER,
            'spec.role.instructions is given both in frontmatter and as the Markdown body',
            { ...where },
          ),
    );
  }
  if (body.text !== '') injectInstructions(value, body.text);

  return {
    ok: true,
    value,
    locate: (pointer) => (pointer === INSTRUCTIONS_POINTER && bodyPosition !== undefined ? bodyPosition : frontmatter.locate(pointer)),
  };
}

function fail(i: OapIssue): ParseResult {
  return { ok: false, issues: [i] };
}

function findClosingFence(text: string, from: number): { start: number; end: number } | undefined {
  let start = from;
  while (start <= text.length) {
    const nl = text.indexOf('\n', start);
    const line = nl === -1 ? text.slice(start) : text.slice(start, nl);
    if (FENCE.test(line)) return { start, end: nl === -1 ? text.length : nl + 1 };
    if (nl === -1) return undefined;
    start = nl + 1;
  }
  return undefined;
}

function normaliseBody(raw: string): { text: string; leadingOffset: number } {
  // Offset into the raw body of the first non-blank line, for locating the instructions.
  const leading = /^(?:[ \t]*\r?\n)*/.exec(raw)?.[0].length ?? 0;
  const text = raw.slice(leading).replace(/\r\n/g, '\n').trimEnd();
  return { text: text === '' ? '' : `${text}\n`, leadingOffset: leading };
}

// Only objects are created or extended; a `spec` or `role` of another type is left for the
// schema to report rather than overwritten.
function injectInstructions(doc: JsonObject, instructions: string): void {
  if (doc.spec === undefined) setOwn(doc, 'spec', {});
  const spec = doc.spec;
  if (!isPlainObject(spec)) return;
  if (spec.role === undefined) setOwn(spec, 'role', {});
  const role = spec.role;
  if (!isPlainObject(role)) return;
  setOwn(role, 'instructions', instructions);
}
