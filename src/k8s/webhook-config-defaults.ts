/**
 * admissionregistration/v1's defaulting of Mutating- and ValidatingWebhookConfigurations, as the
 * apiserver runs it on decode (SetObjectDefaults_*WebhookConfiguration: per webhook
 * SetDefaults_{Mutating,Validating}Webhook, the client service's SetDefaults_ServiceReference,
 * each rule's SetDefaults_Rule). v1 defaults neither sideEffects nor admissionReviewVersions
 * (v1beta1 did): validation requires them. Pure.
 */
import { isPlainObject } from '../wire/json-object';

type Obj = Record<string, any>;

const objects = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isPlainObject) : []);

/** Fills in each webhook's unset fields; `mutating` adds the reinvocationPolicy default. */
export function defaultWebhookConfiguration(obj: Obj, mutating: boolean): void {
  for (const hook of objects(obj.webhooks)) {
    hook.failurePolicy ??= 'Fail';
    hook.matchPolicy ??= 'Equivalent';
    hook.namespaceSelector ??= {};
    hook.objectSelector ??= {};
    hook.timeoutSeconds ??= 10;
    if (mutating) hook.reinvocationPolicy ??= 'Never';
    const service = hook.clientConfig?.service;
    if (isPlainObject(service)) service.port ??= 443;
    for (const rule of objects(hook.rules)) rule.scope ??= '*';
  }
}
