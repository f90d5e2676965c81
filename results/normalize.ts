import type { RunReport } from './model.js';

/**
 * The report exactly as report.json will hold it, so that every output, and the digest, is made
 * from what a verifier will later read back. The JSON round trip drops `undefined` members and
 * turns non-finite numbers into null, as writing would; unpaired UTF-16 surrogates in adapter
 * output (which JSON.stringify would keep as \ud800 escapes that are not Unicode text, and which
 * RFC 8785 cannot canonicalise) become U+FFFD.
 */
export function normalizeReport(report: RunReport): RunReport {
  return JSON.parse(JSON.stringify(report, (_key, value: unknown) => fixValue(value))) as RunReport;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

function fixValue(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(LONE_SURROGATE, '\ufffd');
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  // Object keys are not passed through the replacer, so they are rebuilt here.
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const key = k.replace(LONE_SURROGATE, '\ufffd');
    if (key !== k) changed = true;
    out[key] = v;
  }
  return changed ? out : value;
}
