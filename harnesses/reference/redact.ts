/**
 * The secret-redaction pass every generated delta value goes through (security.md T3: transcripts
 * contain keys, and state is a durable, shared copy). Credential-shaped substrings are replaced
 * with [REDACTED]; the patterns cover the common provider key formats, bearer tokens, JWTs, PEM
 * private keys and `key = value` assignments whose name says secret.
 */
const REDACTED = '[REDACTED]';

const PATTERNS: RegExp[] = [
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g,
  /\b(?:sk|pk|rk)[-_](?:live|test|proj|ant)?[-_]?[A-Za-z0-9_-]{6,}/g,
  /\bsk-[A-Za-z0-9_-]{6,}/g,
  /\bgh[pousr]_[A-Za-z0-9]{16,}/g,
  /\bgithub_pat_[A-Za-z0-9_]{20,}/g,
  /\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/g,
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/g,
  /\bAIza[0-9A-Za-z_-]{35}\b/g,
  /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
  /\bBearer\s+[A-Za-z0-9._~+/-]{12,}=*/g,
  /\b((?:api[_-]?key|secret|token|password|passwd|access[_-]?key)\s*[:=]\s*)["']?[^\s"',;]{6,}["']?/gi,
];

function redactText(text: string): string {
  let out = text;
  for (const p of PATTERNS) {
    out = out.replace(p, (match: string, prefix?: unknown) =>
      typeof prefix === 'string' && match.startsWith(prefix) ? `${prefix}${REDACTED}` : REDACTED,
    );
  }
  return out;
}

/** Redact every string inside a JSON value (keys are left alone: they are schema field names). */
export function redactValue<T>(value: T): T {
  if (typeof value === 'string') return redactText(value) as T;
  if (Array.isArray(value)) return value.map(redactValue) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = redactValue(v);
    return out as T;
  }
  return value;
}
