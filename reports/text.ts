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
