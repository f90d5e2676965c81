/**
 * Discovery (SPEC §5.1).
 *
 * Reading of "later roots taking precedence for the same name only where the spec permits (§7.1)":
 * the precedence order managed < user < project < plugin decides which *definition* of a name is
 * used, and nothing else. The winner gets the trust label of its own root (never the trust of the
 * definition it shadows), and the effective contract is always intersected with harness policy
 * (§7.2), so an override from a less trusted root can change which agent runs but can never gain
 * authority by shadowing a managed profile. That is the limit §7.1 puts on precedence, and why
 * every cross-root collision is reported.
 *
 * Within one root a duplicate name is an error and neither file wins. We also refuse to fall back
 * to another root's definition of that name: that would be the silent precedence decision §5.1
 * forbids, so the name is unavailable until the collision is fixed.
 */
import { readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Result } from '../../protocol/messages.js';
import { readDocumentFile } from './document.js';
import { adapterIssue, fromOapIssue, type IssueList } from './issues.js';
import { errorsOf, isObject } from './json.js';
import type { DiscoveryRootsT, RootDir } from './roots.js';
import type { RootPurpose, Rules } from './rules.js';

export type DiscoverResult = Result<'discover'>;
type DiscoveredProfile = DiscoverResult['profiles'][number];

const PROFILE_FILE = /\.agent\.(?:ya?ml|json|md)$/i;

interface Candidate {
  name: string;
  root: RootDir;
  path: string;
  fileNameMatches: boolean;
}

function profileFilesIn(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => PROFILE_FILE.test(n))
    .sort()
    .map((n) => join(dir, n))
    .filter((p) => {
      try {
        return statSync(p).isFile();
      } catch {
        return false;
      }
    });
}

export function discover(roots: DiscoveryRootsT, rules: Rules, purpose: RootPurpose): DiscoverResult {
  const issues: IssueList = { errors: [], warnings: [] };
  const collisions: DiscoverResult['collisions'] = [];
  const perRoot: Candidate[][] = [];
  const poisoned = new Set<string>();

  for (const root of rules.discoveryRoots(roots, purpose)) {
    const byName = new Map<string, Candidate[]>();
    for (const path of profileFilesIn(root.dir)) {
      const c = readCandidate(path, root, rules, issues);
      if (!c) continue;
      byName.set(c.name, [...(byName.get(c.name) ?? []), c]);
    }
    const kept: Candidate[] = [];
    for (const [name, list] of byName) {
      const one = rules.withinRootCollision(name, list);
      if (one) {
        kept.push(one);
        continue;
      }
      poisoned.add(name);
      collisions.push({ name, scope: 'within-root', paths: list.map((c) => c.path), winner: null });
      for (const c of list) {
        issues.errors.push(
          adapterIssue('collision', '/metadata/name', `profile name "${name}" is defined more than once in the ${root.kind} root`, c.path),
        );
      }
    }
    perRoot.push(kept);
  }

  const byName = new Map<string, Candidate[]>();
  for (const list of perRoot) for (const c of list) byName.set(c.name, [...(byName.get(c.name) ?? []), c]);
  const profiles: DiscoveredProfile[] = [];
  for (const [name, list] of byName) {
    if (poisoned.has(name)) continue;
    const winner = list.reduce((a, b) => (b.root.rank >= a.root.rank ? b : a));
    profiles.push({
      name,
      root: winner.root.kind,
      path: winner.path,
      trust: rules.winnerTrust(
        winner.root.kind,
        list.map((c) => c.root.kind),
      ),
      file_name_matches: winner.fileNameMatches,
    });
    const collision =
      list.length > 1
        ? rules.crossRootCollision(
            name,
            list.map((c) => c.path),
            winner.path,
          )
        : undefined;
    if (collision) {
      collisions.push(collision);
      issues.warnings.push(
        adapterIssue(
          'collision',
          '/metadata/name',
          `profile "${name}" is defined in several roots; the ${winner.root.kind} root wins`,
          winner.path,
        ),
      );
    }
  }
  profiles.sort((a, b) => a.name.localeCompare(b.name));
  return { profiles, collisions, errors: issues.errors, warnings: issues.warnings };
}

/** Parse and validate one file; a broken file becomes an error for its path and is skipped. */
function readCandidate(path: string, root: RootDir, rules: Rules, issues: IssueList): Candidate | undefined {
  const read = readDocumentFile(path, rules);
  const problems = read.value === undefined ? read.issues : [...read.issues, ...rules.instantiable(read.value, rules).issues];
  const errors = errorsOf(problems);
  for (const i of problems) (errors.includes(i) ? issues.errors : issues.warnings).push(fromOapIssue(i, path));
  if (errors.length > 0 || !isObject(read.value)) return undefined;
  const meta = read.value['metadata'];
  const metaName = isObject(meta) && typeof meta['name'] === 'string' ? meta['name'] : undefined;
  if (!metaName) return undefined;
  const fileName = basename(path).replace(PROFILE_FILE, '');
  const fileNameMatches = fileName === metaName;
  if (!fileNameMatches) {
    issues.warnings.push(
      adapterIssue(
        'other',
        '/metadata/name',
        `file name "${fileName}" differs from metadata.name "${metaName}"; metadata.name is used`,
        path,
      ),
    );
  }
  const name = rules.profileName(metaName, fileName);
  return { name, root, path, fileNameMatches };
}
