/**
 * Adapter-supplied text (messages, stderr) is untrusted: on a terminal it could carry escape
 * sequences, in XML it could carry characters XML forbids. Every formatter passes it through here.
 */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;

/** Control characters removed; tabs and newlines kept. */
export function stripControl(s: string): string {
  return s.replace(/\u001b\[[0-9;?]*[ -/]*[@-~]/g, '').replace(CONTROL, '');
}

/** One line, control characters removed, at most `max` characters. */
export function oneLine(s: string, max = 160): string {
  const flat = stripControl(s).replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 3)}...` : flat;
}

/** Characters XML 1.0 cannot represent at all (lone surrogates, U+FFFE/FFFF, C0 controls). */
export function xmlSafe(s: string): string {
  return stripControl(s).replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]|[\ufffe\uffff]/g, '\ufffd');
}

/** ANSI colours for a terminal that wants them (a TTY, NO_COLOR unset); `paint` is the identity otherwise. */
const ANSI = { red: 31, green: 32, yellow: 33, blue: 34, magenta: 35, cyan: 36, gray: 90, bold: 1 } as const;
export type Colour = keyof typeof ANSI;

export function painter(on: boolean): (colour: Colour, s: string) => string {
  return on ? (colour, s) => `\u001b[${ANSI[colour]}m${s}\u001b[0m` : (_colour, s) => s;
}

/** Colours on a stream: only a TTY, never with NO_COLOR (https://no-color.org) or CI=true. */
export function wantsColour(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  return stream.isTTY === true && env.NO_COLOR === undefined && env.CI !== 'true';
}

/** A wall-clock span as a person reads it: `840 ms`, `8.4 s`, `2 min 05 s`, `1 h 02 min`. */
export function durationText(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return 'unknown';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)} s`;
  const whole = Math.round(s);
  if (whole < 3600) return `${Math.floor(whole / 60)} min ${String(whole % 60).padStart(2, '0')} s`;
  return `${Math.floor(whole / 3600)} h ${String(Math.floor((whole % 3600) / 60)).padStart(2, '0')} min`;
}
