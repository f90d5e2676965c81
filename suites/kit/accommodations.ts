/**
 * The vocabulary of legal forms (./forms.ts applies them): the aspects a case can be about, and
 * each accommodation with its aspect and what it changes, in words. Plain data, shared by the case
 * kit, calibration, the engine's flags and the run header.
 */
/** What a case can be about, so that calibration leaves that form exactly as the case builds it. */
export type FormAspect = 'optional-metadata' | 'append' | 'pin' | 'encoding';

export const ACCOMMODATIONS = {
  'metadata-revision': {
    aspect: 'optional-metadata',
    says: 'profiles that leave metadata.revision out carry it with its schema default, 1',
  },
  'metadata-updated-at': {
    aspect: 'optional-metadata',
    says: `profiles that leave metadata.updated_at out carry it (${'2030-01-01T00:00:00Z'})`,
  },
  'append-by-index': { aspect: 'append', says: 'entries are added to a state collection at its next index instead of at /-' },
  'append-by-id': { aspect: 'append', says: 'entries are added to a state collection at id:<its id> instead of at /-' },
  'pin-profile-digest': {
    aspect: 'pin',
    says: 'a delta without target.digest, aimed at the revision on disk, is pinned by the profile digest',
  },
  'pin-spec-digest': {
    aspect: 'pin',
    says: 'a delta without target.digest, aimed at the revision on disk, is pinned by the spec digest',
  },
  'encoding-yaml': { aspect: 'encoding', says: 'cases write their documents in YAML' },
  'encoding-json': { aspect: 'encoding', says: 'cases write their documents in JSON' },
  'encoding-md': { aspect: 'encoding', says: 'cases write their documents in Markdown' },
} as const satisfies Record<string, { aspect: FormAspect; says: string }>;

export type Accommodation = keyof typeof ACCOMMODATIONS;

export const ACCOMMODATION_NAMES = Object.keys(ACCOMMODATIONS) as Accommodation[];

export function isAccommodation(name: string): name is Accommodation {
  return Object.hasOwn(ACCOMMODATIONS, name);
}

/** The value `metadata-updated-at` fills in: fixed, far from any apply time a case passes. */
export const FILLED_UPDATED_AT = '2030-01-01T00:00:00Z';

/** The accommodations a case takes: the run's, less those of an aspect the case is about. */
export function accommodationsFor(run: readonly Accommodation[], about: readonly FormAspect[] = []): Accommodation[] {
  return run.filter((a) => !about.includes(ACCOMMODATIONS[a].aspect));
}
