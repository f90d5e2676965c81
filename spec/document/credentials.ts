/**
 * Credential shapes the whole-document scan looks for (SPEC §7.3, security.md T3: a resolver
 * SHOULD refuse documents containing strings matching known credential patterns). Each shape
 * is anchored on a vendor prefix and preceded by a boundary, so prose containing the letters
 * ("task-list", "desk-", "kiosk-mode") does not match. The generic `sk-` shape is the only one
 * without a distinctive prefix, so it also demands a digit: real keys are random base62 and
 * practically always contain one, hyphenated words rarely do. Slack tokens likewise must continue
 * with a numeric id.
 */
export interface CredentialShape {
  /** Detail of the issue code: `secret-pattern.<name>`. */
  readonly name: string;
  readonly description: string;
  readonly pattern: RegExp;
}

const B = '(?<![A-Za-z0-9_-])';

const CREDENTIAL_SHAPES: readonly CredentialShape[] = [
  {
    name: 'anthropic-key',
    description: 'an Anthropic API key (sk-ant-…)',
    pattern: new RegExp(`${B}sk-ant-[A-Za-z0-9_-]{16,}`),
  },
  {
    name: 'sk-key',
    description: 'an API secret key (sk-…)',
    pattern: new RegExp(`${B}sk-(?=[A-Za-z0-9_-]*[0-9])[A-Za-z0-9_-]{16,}`),
  },
  {
    name: 'stripe-key',
    description: 'a Stripe secret key (sk_live_…/rk_live_…)',
    pattern: new RegExp(`${B}[sr]k_(?:live|test)_[A-Za-z0-9]{16,}`),
  },
  {
    name: 'github-token',
    description: 'a GitHub token (ghp_/gho_/ghs_/ghu_/ghr_/github_pat_…)',
    pattern: new RegExp(`${B}(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})`),
  },
  {
    name: 'aws-access-key',
    description: 'an AWS access key id (AKIA…/ASIA…)',
    pattern: /(?<![A-Za-z0-9])(?:AKIA|ASIA)[0-9A-Z]{16}(?![A-Za-z0-9])/,
  },
  {
    name: 'slack-token',
    description: 'a Slack token (xox?-…)',
    // Real tokens continue with a numeric team/user id, which keeps "xoxo-hugs" out.
    pattern: new RegExp(`${B}xox[abpors]-[0-9]{2,}-[A-Za-z0-9-]{6,}`),
  },
  {
    name: 'private-key',
    description: 'a PEM private key block',
    pattern: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/,
  },
  {
    name: 'jwt',
    description: 'a JSON Web Token (eyJ….eyJ….…)',
    pattern: new RegExp(`${B}eyJ[A-Za-z0-9_-]{8,}\\.eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]*`),
  },
];

// One cheap test rejects almost every string before the individual shapes run.
const PREFILTER = /sk-|[sr]k_|gh[pousr]_|github_pat_|AKIA|ASIA|xox[abpors]-|-----BEGIN|eyJ/;

export function findCredential(s: string): CredentialShape | undefined {
  if (!PREFILTER.test(s)) return undefined;
  return CREDENTIAL_SHAPES.find((shape) => shape.pattern.test(s));
}
