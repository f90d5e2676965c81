/**
 * Every fuzz property, by name. Finding files name their property, so a name here is a stable
 * identifier: never reuse one for a different judgement.
 */
import { delegationProperty, extendsProperty } from './properties/chains.js';
import {
  deltaScopeProperty,
  fakerProperty,
  hostileParseProperty,
  hostileParseTimeProperty,
  invalidInstantiateProperty,
  reservedOpsProperty,
  secretsProperty,
  traversalProperty,
} from './properties/hostile.js';
import { authorityProperty, delimiterProperty, injectionProperty, varsProperty } from './properties/injection.js';
import { narrowingProperty, toolPolicyProperty } from './properties/narrowing.js';
import type { FuzzProperty } from './properties/types.js';

export const PROPERTIES: readonly FuzzProperty<unknown>[] = [
  narrowingProperty,
  toolPolicyProperty,
  extendsProperty,
  delegationProperty,
  injectionProperty,
  delimiterProperty,
  authorityProperty,
  varsProperty,
  traversalProperty,
  secretsProperty,
  deltaScopeProperty,
  reservedOpsProperty,
  hostileParseProperty,
  hostileParseTimeProperty,
  invalidInstantiateProperty,
  fakerProperty,
];

export function propertyByName(name: string): FuzzProperty<unknown> | undefined {
  return PROPERTIES.find((p) => p.name === name);
}
