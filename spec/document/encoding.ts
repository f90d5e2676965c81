/** The three OAP encodings (SPEC §2.1). */
export type Encoding = 'yaml' | 'json' | 'md';

/**
 * Encoding implied by a file name. Only the final extension matters, so `.agent.yaml`,
 * `.delta.yml` and plain `.yaml` all read as YAML; Markdown is only defined for profiles but a
 * `.md` file is still read as frontmatter + body and judged by its `kind`.
 */
export function encodingFromPath(path: string): Encoding | undefined {
  const lower = path.toLowerCase();
  if (lower.endsWith('.yaml') || lower.endsWith('.yml')) return 'yaml';
  if (lower.endsWith('.json')) return 'json';
  if (lower.endsWith('.md')) return 'md';
  return undefined;
}

/** Names the CLI picks up when walking a directory: profiles and deltas, nothing else. */
export function isOapDocumentName(name: string): boolean {
  return /\.agent\.(?:ya?ml|json|md)$/i.test(name) || /\.delta\.(?:ya?ml|json)$/i.test(name);
}
