/**
 * Model resolution (SPEC §3.3) through the spec model's rules 1-4, reported as an adjustment when
 * rule 1 did not apply. The L1-I12 quirks sit around that call.
 */
import type { AdjustmentT, HarnessPolicyT } from '../../protocol/messages.js';
import { type ModelChoice, modelRequestOf, resolveModel as resolveBySpec, ruleReason, tierRoute } from '../../spec/semantics/index.js';
import type { JsonObject } from './document.js';
import type { Quirks } from './quirks.js';

export function resolveModel(spec: JsonObject, policy: HarnessPolicyT, quirks: Quirks): { model: ModelChoice; adjustments: AdjustmentT[] } {
  const request = modelRequestOf(spec);
  // The L1-I12 mutant applies tier routing (rule 3) before the exact model (rule 1).
  let choice =
    (quirks.has('tier-before-exact') ? tierRoute(request, policy.models) : undefined) ?? resolveBySpec(request, policy.models).value;
  const adjustments: AdjustmentT[] = [];
  // The L1-I9 mutant reports the rule it applied but never records the substitution itself.
  if (choice.rule !== 1 && request && !quirks.has('model-substitution-unrecorded')) {
    const { provider, id, tier } = request;
    const requested = provider && id ? { provider, id } : tier ? { tier } : undefined;
    adjustments.push({
      pointer: '/spec/model',
      action: 'substituted',
      reason: ruleReason(choice.rule),
      ...(requested ? { requested } : {}),
      effective: { provider: choice.provider, id: choice.id },
    });
  }
  // The L1-I12 mutant used a different model but claims it honoured the exact one.
  if (quirks.has('model-rule-unreported')) choice = { ...choice, rule: 1 };
  return { model: choice, adjustments };
}
