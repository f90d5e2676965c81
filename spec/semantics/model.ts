/**
 * Model resolution (SPEC §3.3; conformance.md L1-I12; security.md T5).
 *
 * Reading (INTERPRETATIONS.md#model): the four rules in order:
 * 1. `provider` and `id` present and served by the harness: that model;
 * 2. otherwise the first of `fallbacks` the harness serves;
 * 3. otherwise, `tier` present and routed by the harness: the tier's model;
 * 4. otherwise the harness default.
 * A profile without `spec.model` gets the harness default by rule 4 (it never named an exact
 * model, so rule 1 cannot have applied); a tier the harness has no routing for falls through to
 * rule 4. "A harness MUST report which rule it applied when it did not use rule 1."
 */
import type { Reasoned } from './reasoned.js';

interface ModelRef {
  provider: string;
  id: string;
}

export type ModelRule = 1 | 2 | 3 | 4;

/**
 * The model parameters SPEC §3.3 names as ones a provider may not support: "A harness MUST NOT fail
 * because a provider does not support `seed` or `reasoning_effort`; it drops the unsupported
 * parameter and warns." What a harness does with them is ADV-model-parameters' question.
 */
export const PROVIDER_DEPENDENT_PARAMETERS = ['seed', 'reasoning_effort'] as const;

export interface ModelChoice extends ModelRef {
  rule: ModelRule;
}

type Tier = 'minimal' | 'standard' | 'advanced' | 'frontier';

/** What the harness can serve (the protocol's `HarnessPolicy.models`). */
export interface HarnessModels {
  available: readonly ModelRef[];
  tiers?: Partial<Record<Tier, ModelRef>> | undefined;
  default: ModelRef;
}

/** The part of `spec.model` resolution reads. */
export interface ModelRequest {
  provider?: string | undefined;
  id?: string | undefined;
  tier?: string | undefined;
  fallbacks?: readonly ModelRef[] | undefined;
}

const RULE_NAMES: Readonly<Record<ModelRule, string>> = { 1: 'exact', 2: 'fallback', 3: 'tier routing', 4: 'harness default' };

/** `spec.model` of a profile's `spec`, strings only; undefined when the section is absent. */
export function modelRequestOf(spec: unknown): ModelRequest | undefined {
  const s = typeof spec === 'object' && spec !== null ? (spec as Record<string, unknown>) : {};
  const m = s['model'];
  if (typeof m !== 'object' || m === null || Array.isArray(m)) return undefined;
  const r = m as Record<string, unknown>;
  const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
  const fallbacks = Array.isArray(r['fallbacks'])
    ? (r['fallbacks'] as unknown[]).filter(
        (f): f is ModelRef =>
          typeof f === 'object' && f !== null && typeof (f as ModelRef).provider === 'string' && typeof (f as ModelRef).id === 'string',
      )
    : undefined;
  return { provider: str(r['provider']), id: str(r['id']), tier: str(r['tier']), fallbacks };
}

function serves(models: HarnessModels, ref: ModelRef): boolean {
  return models.available.some((a) => a.provider === ref.provider && a.id === ref.id);
}

/** Rule 1, when it applies. */
function exactModel(request: ModelRequest | undefined, models: HarnessModels): ModelChoice | undefined {
  const { provider, id } = request ?? {};
  return provider !== undefined && id !== undefined && serves(models, { provider, id }) ? { provider, id, rule: 1 } : undefined;
}

/** Rule 2, when it applies. */
function servedFallback(request: ModelRequest | undefined, models: HarnessModels): ModelChoice | undefined {
  const fb = request?.fallbacks?.find((f) => serves(models, f));
  return fb ? { provider: fb.provider, id: fb.id, rule: 2 } : undefined;
}

/** Rule 3, when it applies. */
export function tierRoute(request: ModelRequest | undefined, models: HarnessModels): ModelChoice | undefined {
  const tier = request?.tier as Tier | undefined;
  const routed = tier !== undefined ? models.tiers?.[tier] : undefined;
  return routed ? { provider: routed.provider, id: routed.id, rule: 3 } : undefined;
}

/** Rule 4. */
function harnessDefault(models: HarnessModels): ModelChoice {
  return { provider: models.default.provider, id: models.default.id, rule: 4 };
}

/** Why a model was chosen, as a harness reports it (rule 1 needs no report). */
export function ruleReason(rule: ModelRule): string {
  return `model resolved by SPEC 3.3 rule ${rule} (${RULE_NAMES[rule]})`;
}

/** Rules 1-4 in order: the model used and the rule, with the reason when it is not rule 1. */
export function resolveModel(request: ModelRequest | undefined, models: HarnessModels): Reasoned<ModelChoice> {
  const value = exactModel(request, models) ?? servedFallback(request, models) ?? tierRoute(request, models) ?? harnessDefault(models);
  const reasons = value.rule === 1 ? [] : [ruleReason(value.rule)];
  return { value, reasons };
}
