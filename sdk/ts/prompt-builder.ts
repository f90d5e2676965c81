import type { Result } from '../../protocol/messages.js';

type RenderedPrompt = Result<'describe_session'>['prompt'];
type Section = RenderedPrompt['sections'][number];
type SectionKind = Section['kind'];

export interface StateDelimiters {
  /** The first line of the state section, e.g. `<untrusted-agent-state>`. */
  open: string;
  /** The last line of the state section. */
  close: string;
}

/**
 * Builds a rendered prompt and its section map. Offsets are UTF-8 byte offsets into the final
 * text (start inclusive, end exclusive), which is what the runner slices with; JavaScript string
 * indices are UTF-16 and would be wrong for any non-ASCII text.
 */
export class PromptBuilder {
  private readonly chunks: string[] = [];
  private bytes = 0;
  private readonly sections: Section[] = [];

  constructor(private readonly separator = '\n\n') {}

  /** Append a section. The separator before it is not part of any section. */
  section(kind: SectionKind, text: string, trusted: boolean): this {
    if (this.chunks.length > 0) this.raw(this.separator);
    const start = this.bytes;
    this.raw(text);
    this.sections.push({ kind, start, end: this.bytes, trusted });
    return this;
  }

  /**
   * Append the state section: untrusted, with `open` as its first line and `close` as its last,
   * so the runner can see where state begins and ends without knowing the harness's wording.
   */
  state(body: string, delimiters: StateDelimiters): this {
    const inner = body.endsWith('\n') ? body : `${body}\n`;
    return this.section('state', `${delimiters.open}\n${inner}${delimiters.close}`, false);
  }

  /** Append text that belongs to no section (glue between sections). */
  raw(text: string): this {
    this.chunks.push(text);
    this.bytes += Buffer.byteLength(text, 'utf8');
    return this;
  }

  get byteLength(): number {
    return this.bytes;
  }

  build(state: RenderedPrompt['state'] = { included: [], elided: [], notice: null }): RenderedPrompt {
    return { text: this.chunks.join(''), sections: this.sections.map((s) => ({ ...s })), state };
  }
}

/** The text of a section, sliced by byte offsets (for adapters' own tests and for the runner). */
export function sectionText(prompt: Pick<RenderedPrompt, 'text'>, section: Pick<Section, 'start' | 'end'>): string {
  return Buffer.from(prompt.text, 'utf8').subarray(section.start, section.end).toString('utf8');
}
