import type { RunOutcome } from '../results/outcome.js';

/** shields.io endpoint badge (https://shields.io/badges/endpoint-badge). */
export interface EndpointBadge {
  schemaVersion: 1;
  label: 'OAP 1.0.1';
  message: string;
  color: string;
}

const LEVEL_COLOR = { 1: 'yellowgreen', 2: 'green', 3: 'brightgreen' } as const;

/**
 * Shows the attained level, and "not conformant" when none was attained or the run cannot certify
 * (incomplete, or dirty fixtures without --allow-dirty): a badge must never claim more than verify would.
 */
export function buildBadge(o: RunOutcome): EndpointBadge {
  // attainedLevel() is already 0 for an incomplete report.
  if (o.attained === 0 || o.dirtyBlocked) return { schemaVersion: 1, label: 'OAP 1.0.1', message: 'not conformant', color: 'red' };
  return { schemaVersion: 1, label: 'OAP 1.0.1', message: `Level ${o.attained}`, color: LEVEL_COLOR[o.attained as 1 | 2 | 3] };
}

export const renderBadge = (o: RunOutcome): string => `${JSON.stringify(buildBadge(o), null, 2)}\n`;
