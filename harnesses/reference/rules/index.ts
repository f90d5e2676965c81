/** REFERENCE_RULES: the table of rules OAP 1.0.1 asks for (../rules.ts says what each rule decides). */
import type { Rules } from '../rules.js';
import { deltaRules } from './deltas.js';
import { discoveryRules } from './discovery.js';
import { documentRules } from './documents.js';
import { narrowingRules } from './narrowing.js';
import { promptRules } from './prompt.js';

export const REFERENCE_RULES: Readonly<Rules> = Object.freeze({
  ...documentRules,
  ...discoveryRules,
  ...narrowingRules,
  ...promptRules,
  ...deltaRules,
});
