/** Model resolution (SPEC §3.3), rules 1-4 in order; the rule applied is always reported. */
import type { AdjustmentT, HarnessPolicyT } from '../protocol/messages.js';
import { isObject, type JsonObject } from './document.js';
import type { Quirks } from './quirks.js';

export interface ModelChoice {
  provider: string;
  id: string;
  rule: 1 | 2 | 3 | 4;
}

type ModelRef = { provider: string; id: string };

export function resolveModel(spec: JsonObject, policy: HarnessPolicyT, quirks: Quirks): { model: ModelChoice; adjustments: AdjustmentT[] } {
  const m = isObject(spec['model']) ? spec['model'] : undefined;
  const available = policy.models.available;
  const served = (r: ModelRef): boolean => available.some((a) => a.provider === r.provider && a.id === r.id);
  let choice: ModelChoice | undefined;
  const provider = typeof m?.['provider'] === 'string' ? m['provider'] : undefined;
  const id = typeof m?.['id'] === 'string' ? m['id'] : undefined;
  const tier = typeof m?.['tier'] === 'string' ? (m['tier'] as keyof NonNullable<HarnessPolicyT['models']['tiers']>) : undefined;
  const routed = tier ? policy.models.tiers?.[tier] : undefined;
  // The L1-I12 mutant applies tier routing (rule 3) before the exact model (rule 1).
  if (quirks.has('tier-before-exact') && routed) choice = { provider: routed.provider, id: routed.id, rule: 3 };
  if (!choice && provider && id && served({ provider, id })) choice = { provider, id, rule: 1 };
  if (!choice && Array.isArray(m?.['fallbacks'])) {
    const fb = (m['fallbacks'] as ModelRef[]).find(served);
    if (fb) choice = { provider: fb.provider, id: fb.id, rule: 2 };
  }
  if (!choice && routed) choice = { provider: routed.provider, id: routed.id, rule: 3 };
  if (!choice) choice = { provider: policy.models.default.provider, id: policy.models.default.id, rule: 4 };

  const adjustments: AdjustmentT[] = [];
  if (choice.rule !== 1 && m) {
    const requested = provider && id ? { provider, id } : tier ? { tier } : undefined;
    adjustments.push({
      pointer: '/spec/model',
      action: 'substituted',
      reason: `model resolved by SPEC 3.3 rule ${choice.rule} (${['', 'exact', 'fallback', 'tier routing', 'harness default'][choice.rule]})`,
      ...(requested ? { requested } : {}),
      effective: { provider: choice.provider, id: choice.id },
    });
  }
  // The L1-I12 mutant used a different model but claims it honoured the exact one.
  if (quirks.has('model-rule-unreported')) choice = { ...choice, rule: 1 };
  return { model: choice, adjustments };
}
