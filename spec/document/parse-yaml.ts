import { Composer, Lexer, LineCounter, Parser, isAlias, isMap, isScalar, isSeq } from 'yaml';
import type { Document, ParsedNode, Scalar } from 'yaml';
import type { CST } from 'yaml';
import { escapePointerToken, parsePointer } from '../semantics/pointer.js';
import { issue, type OapIssue } from './issue.js';
import { hasOwn, setOwn, type JsonObject } from './json-data.js';
import type { ParseLimits } from './limits.js';
import { ParseAbort, type Locate, type ParseResult } from './parse-result.js';
import type { Position } from './source.js';

/**
 * YAML 1.2 with the core schema, turned into the plain JSON data model.
 *
 * Decisions worth knowing:
 * - The core schema is forced even if the document says `%YAML 1.1`, and such a directive is
 *   rejected (`parse.yaml-version`): a 1.1 author expects `off` to be false, and reading it as
 *   the string "off" would silently change the document.
 * - Only core-schema tags are accepted. `!!binary`, `!!set`, `!!timestamp`, local tags and the
 *   like would otherwise be downgraded to strings with a mere warning (`parse.unsupported-tag`).
 * - Scalar keys are coerced to strings. Quoted and plain-string keys keep their value; other plain
 *   scalars keep the text as written (`1.0:` → "1.0", `~:` → "~"), an empty key becomes "".
 *   Collection keys have no JSON form and are rejected (`parse.non-scalar-key`).
 * - Duplicate keys are reported for both YAML equality (yaml's `uniqueKeys`) and collisions that
 *   only appear after key coercion (`1:` and `"1":`), always at the second occurrence.
 * - Aliases are expanded (JSON has no sharing) under `maxAliases`/`maxAliasNodes`. yaml's own
 *   `maxAliasCount` only guards its `toJS()`, which is not used: the conversion here is ours (it
 *   also has to coerce keys, find duplicates and keep pointers), so it enforces the same bound
 *   itself, counting dereferences inside expansions so a billion-laughs document fails after ~100
 *   steps. An anchor is usable only after its node is complete, so recursive aliases are
 *   unresolved rather than infinite.
 * - Depth is bounded twice: while the CST is built (the parser's stack is one entry per open
 *   node, at most depth + 2), so a 100k-deep document stops after ~66 tokens instead of being
 *   fed to yaml's recursive composer; and exactly, on the JSON value, during conversion.
 */
export function parseYaml(text: string, limits: ParseLimits, lineOffset = 0): ParseResult {
  const lines = new LineCounter();
  const at = (offset: number): Position => {
    const { line, col } = lines.linePos(offset);
    return { line: line + lineOffset, column: col };
  };
  try {
    const tokens = buildCst(text, limits, lines, at);
    const docs = composeDocuments(tokens, at);
    if (docs.length > 1) {
      const second = docs[1]!;
      return {
        ok: false,
        issues: [issue('parse.multi-document', '', 'a YAML stream with more than one document', at(second.range[0]))],
      };
    }
    const doc = docs[0]!;
    const { issues, duplicateKeyOffsets } = documentProblems(doc, at);
    if (issues.length > 0) return { ok: false, issues };
    const converter = new YamlToJson(limits, duplicateKeyOffsets, at);
    const value = converter.convert(doc.contents, '', 0);
    if (converter.issues.length > 0) return { ok: false, issues: converter.issues };
    return { ok: true, value, locate: yamlLocator(doc, at) };
  } catch (err) {
    if (err instanceof ParseAbort) return { ok: false, issues: [err.issue] };
    throw err;
  }
}

function buildCst(text: string, limits: ParseLimits, lines: LineCounter, at: (o: number) => Position): CST.Token[] {
  const parser = new Parser(lines.addNewLine);
  lines.addNewLine(0);
  const tokens: CST.Token[] = [];
  const maxStack = limits.maxDepth + 2;
  for (const lexeme of new Lexer().lex(text)) {
    for (const token of parser.next(lexeme)) tokens.push(token);
    if (parser.stack.length > maxStack) {
      throw new ParseAbort(issue('limit.depth', '', `nesting deeper than ${limits.maxDepth}`, at(parser.offset)));
    }
  }
  for (const token of parser.end()) tokens.push(token);
  return tokens;
}

const COMPOSE_OPTIONS = {
  version: '1.2',
  schema: 'core',
  merge: false,
  uniqueKeys: true,
  resolveKnownTags: false,
  intAsBigInt: false,
  prettyErrors: false,
  logLevel: 'silent',
} as const;

function composeDocuments(tokens: CST.Token[], at: (o: number) => Position): Document.Parsed[] {
  try {
    return Array.from(new Composer(COMPOSE_OPTIONS).compose(tokens, true));
  } catch (err) {
    // Unreachable while the CST depth guard holds; kept so a composer recursion failure can
    // never surface as a stack trace.
    if (err instanceof RangeError) throw new ParseAbort(issue('limit.depth', '', 'document nesting too deep', at(0)));
    throw err;
  }
}

function documentProblems(doc: Document.Parsed, at: (o: number) => Position): { issues: OapIssue[]; duplicateKeyOffsets: Set<number> } {
  const issues: OapIssue[] = [];
  const duplicateKeyOffsets = new Set<number>();
  const yamlDirective = doc.directives?.yaml;
  if (yamlDirective?.explicit && yamlDirective.version !== '1.2') {
    issues.push(issue('parse.yaml-version', '', `%YAML ${yamlDirective.version} directive; OAP documents are YAML 1.2`, at(0)));
  }
  for (const e of doc.errors) {
    if (e.code === 'DUPLICATE_KEY') duplicateKeyOffsets.add(e.pos[0]);
    else if (e.code === 'RESOURCE_EXHAUSTION') issues.push(issue('limit.depth', '', 'document nesting too deep', at(e.pos[0])));
    else issues.push(issue('parse.syntax', '', `${firstLine(e.message)} (${e.code})`, at(e.pos[0])));
  }
  for (const w of doc.warnings) {
    if (w.code === 'TAG_RESOLVE_FAILED') issues.push(issue('parse.unsupported-tag', '', firstLine(w.message), at(w.pos[0])));
  }
  return { issues, duplicateKeyOffsets };
}

function firstLine(s: string): string {
  const i = s.indexOf('\n');
  return i === -1 ? s : s.slice(0, i);
}

type YamlNode = ParsedNode | null | undefined;

function nodeOffset(node: YamlNode): number | undefined {
  return node?.range?.[0];
}

/** The string a scalar key stands for in the JSON model (see the module comment). */
function scalarKey(node: Scalar): string {
  const v: unknown = node.value;
  if (typeof v === 'string') return v;
  return node.source ?? String(v);
}

class YamlToJson {
  readonly issues: OapIssue[] = [];
  private readonly anchors = new Map<string, ParsedNode>();
  private aliases = 0;
  private aliasNodes = 0;
  private expanding = 0;

  constructor(
    private readonly limits: ParseLimits,
    private readonly duplicateKeyOffsets: Set<number>,
    private readonly at: (offset: number) => Position,
  ) {}

  convert(node: YamlNode, pointer: string, parentDepth: number): unknown {
    if (node === null || node === undefined) return null;
    if (this.expanding > 0 && ++this.aliasNodes > this.limits.maxAliasNodes) {
      this.abort('limit.aliases', `alias expansion exceeds ${this.limits.maxAliasNodes} nodes`, pointer, node);
    }
    if (isAlias(node)) {
      const target = this.deref(node.source, pointer, node);
      if (target === undefined) return null;
      this.expanding++;
      try {
        return this.convert(target, pointer, parentDepth);
      } finally {
        this.expanding--;
      }
    }
    if (isScalar(node)) {
      const v: unknown = node.value;
      if (typeof v === 'number' && !Number.isFinite(v)) {
        this.report('non-finite', `${node.source ?? String(v)} is not a finite number`, pointer, node);
      } else if (v !== null && typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') {
        this.report('parse.unsupported-tag', 'scalar has no JSON representation', pointer, node);
      }
      this.remember(node);
      return v;
    }
    const depth = parentDepth + 1;
    if (depth > this.limits.maxDepth) this.abort('limit.depth', `nesting deeper than ${this.limits.maxDepth}`, pointer, node);
    if (isSeq(node)) {
      const out: unknown[] = [];
      node.items.forEach((item, i) => {
        out.push(this.convert(item as YamlNode, `${pointer}/${i}`, depth));
      });
      this.remember(node);
      return out;
    }
    if (isMap(node)) {
      const out: JsonObject = {};
      for (const pair of node.items) {
        const keyNode = pair.key as YamlNode;
        const key = this.key(keyNode, pointer);
        if (key === undefined) continue;
        const childPointer = `${pointer}/${escapePointerToken(key)}`;
        const keyOffset = nodeOffset(keyNode);
        const duplicate = hasOwn(out, key) || (keyOffset !== undefined && this.duplicateKeyOffsets.has(keyOffset));
        const value = this.convert(pair.value as YamlNode, childPointer, depth);
        if (duplicate) this.report('duplicate-key', `duplicate key "${key}"`, childPointer, keyNode ?? (pair.value as YamlNode));
        else setOwn(out, key, value);
      }
      this.remember(node);
      return out;
    }
    this.report('parse.syntax', 'unrecognised YAML node', pointer, node);
    return null;
  }

  private key(node: YamlNode, parentPointer: string): string | undefined {
    if (node === null || node === undefined) return '';
    let target: ParsedNode | undefined = node;
    if (isAlias(node)) target = this.deref(node.source, parentPointer, node);
    if (target === undefined) return undefined;
    if (isScalar(target)) {
      if (target === node) this.remember(node);
      return scalarKey(target);
    }
    this.report('parse.non-scalar-key', 'mapping key is a collection; JSON keys are strings', parentPointer, node);
    return undefined;
  }

  private deref(name: string, pointer: string, node: ParsedNode): ParsedNode | undefined {
    if (++this.aliases > this.limits.maxAliases) {
      this.abort('limit.aliases', `more than ${this.limits.maxAliases} alias expansions`, pointer, node);
    }
    const target = this.anchors.get(name);
    if (target === undefined) this.report('parse.alias-unresolved', `alias *${name} has no completed anchor before it`, pointer, node);
    return target;
  }

  // Registering only outside expansions keeps "most recent anchor in document order" exact:
  // re-walking an anchored subtree must not resurrect anchors that a later node redefined.
  private remember(node: ParsedNode): void {
    if (this.expanding === 0 && !isAlias(node) && node.anchor) this.anchors.set(node.anchor, node);
  }

  private position(node: YamlNode): Position | undefined {
    const offset = nodeOffset(node);
    return offset === undefined ? undefined : this.at(offset);
  }

  private report(code: string, message: string, pointer: string, node: YamlNode): void {
    this.issues.push(issue(code, pointer, message, { ...this.position(node) }));
  }

  private abort(code: string, message: string, pointer: string, node: YamlNode): never {
    throw new ParseAbort(issue(code, pointer, message, { ...this.position(node) }));
  }
}

/** Walks the YAML AST along a pointer; members resolve to their key, elements to their node. */
function yamlLocator(doc: Document.Parsed, at: (offset: number) => Position): Locate {
  return (pointer) => {
    let tokens: string[];
    try {
      tokens = parsePointer(pointer);
    } catch {
      return undefined;
    }
    let node: YamlNode = doc.contents;
    let offset = nodeOffset(node) ?? 0;
    for (const token of tokens) {
      // Data reached through an alias was written at the alias.
      if (node === null || node === undefined || isAlias(node)) break;
      if (isMap(node)) {
        const pair = node.items.find((p) => {
          const k = p.key as YamlNode;
          if (k === null || k === undefined) return token === '';
          return isScalar(k) && scalarKey(k) === token;
        });
        if (pair === undefined) return undefined;
        offset = nodeOffset(pair.key as YamlNode) ?? nodeOffset(pair.value as YamlNode) ?? offset;
        node = pair.value as YamlNode;
      } else if (isSeq(node)) {
        if (!/^(?:0|[1-9][0-9]*)$/.test(token)) return undefined;
        const item = node.items[Number(token)] as YamlNode;
        if (item === undefined) return undefined;
        offset = nodeOffset(item) ?? offset;
        node = item;
      } else {
        return undefined;
      }
    }
    return at(offset);
  };
}
