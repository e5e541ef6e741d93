/**
 * autoscaling's defaulting of a HorizontalPodAutoscaler spec (v1 and v2), as the apiserver runs it
 * on decode. Pure.
 */
import { isPlainObject } from '../wire/json-object';

type Obj = Record<string, any>;

/** autoscaling's SetDefaults_HorizontalPodAutoscaler: minReplicas 1; in v2 also the CPU metric and the behavior's unset rules. */
export function defaultHpaSpec(spec: Obj, v2: boolean): void {
  spec.minReplicas ??= 1;
  if (!v2) return;
  if (!Array.isArray(spec.metrics) || spec.metrics.length === 0) {
    spec.metrics = [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }];
  }
  if (!isPlainObject(spec.behavior)) return;
  const policy = (type: string, value: number) => ({ type, value, periodSeconds: 15 });
  spec.behavior.scaleUp = scalingRules(spec.behavior.scaleUp, { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [policy('Pods', 4), policy('Percent', 100)] });
  spec.behavior.scaleDown = scalingRules(spec.behavior.scaleDown, { selectPolicy: 'Max', policies: [policy('Percent', 100)] });
}

/** GenerateHPAScale{Up,Down}Rules: the given rules' set fields over the defaults. */
function scalingRules(given: unknown, defaults: Obj): Obj {
  if (!isPlainObject(given)) return defaults;
  const out: Obj = { ...defaults };
  if (given.stabilizationWindowSeconds !== undefined && given.stabilizationWindowSeconds !== null) out.stabilizationWindowSeconds = given.stabilizationWindowSeconds;
  if (given.selectPolicy !== undefined && given.selectPolicy !== null) out.selectPolicy = given.selectPolicy;
  if (given.policies !== undefined && given.policies !== null) out.policies = given.policies;
  return out;
}
