/**
 * admissionregistration's ValidateValidatingWebhookConfiguration and
 * ValidateMutatingWebhookConfiguration (and their Update variants) as v1.26 runs them on
 * admissionregistration.k8s.io/v1 objects, after defaulting and the metadata rules: each
 * webhook's name, rules, policies, sideEffects, timeout, selectors and clientConfig, then its
 * admissionReviewVersions and the uniqueness of its name. An update relaxes the sideEffects,
 * review-version, unique-name and selector-value rules where the stored object already breaks
 * them. Pure.
 */
import { duplicateField, invalidField, notSupportedField, requiredField, type FieldError } from './field-errors';
import { validateLabelSelector } from './label-selector-validation';
import { isDns1123Subdomain } from './names';
import { validateWebhookClientConfig } from './webhook-client-config-validation';
import { hasAcceptedReviewVersions, validateAdmissionReviewVersions, validateRuleWithOperations } from './webhook-rule-validation';
import { isPlainObject } from '../wire/json-object';

type Obj = Record<string, any>;

interface Options {
  requireNoSideEffects: boolean;
  requireRecognizedAdmissionReviewVersion: boolean;
  requireUniqueWebhookNames: boolean;
  /** Match-expression values of the selectors need not be label values. */
  allowInvalidLabelValueInSelector: boolean;
}

const CREATE: Options = { requireNoSideEffects: true, requireRecognizedAdmissionReviewVersion: true, requireUniqueWebhookNames: true, allowInvalidLabelValueInSelector: false };

const FAILURE_POLICIES = ['Fail', 'Ignore'];
const MATCH_POLICIES = ['Equivalent', 'Exact'];
const SIDE_EFFECT_CLASSES = ['None', 'NoneOnDryRun', 'Some', 'Unknown'];
const NO_SIDE_EFFECT_CLASSES = ['None', 'NoneOnDryRun'];
const REINVOCATION_POLICIES = ['IfNeeded', 'Never'];

const webhooksOf = (obj: Obj): Obj[] => (Array.isArray(obj.webhooks) ? obj.webhooks.map((h: unknown) => (isPlainObject(h) ? h : {})) : []);
const isSet = (v: unknown) => v !== undefined && v !== null;

export function validateValidatingWebhookConfiguration(obj: Obj): FieldError[] {
  return validateConfiguration(obj, false, CREATE);
}

export function validateMutatingWebhookConfiguration(obj: Obj): FieldError[] {
  return validateConfiguration(obj, true, CREATE);
}

export function validateValidatingWebhookConfigurationUpdate(next: Obj, old: Obj): FieldError[] {
  return validateConfiguration(next, false, updateOptions(old));
}

export function validateMutatingWebhookConfigurationUpdate(next: Obj, old: Obj): FieldError[] {
  return validateConfiguration(next, true, updateOptions(old));
}

/** What the stored object already satisfies stays required; what it breaks is not required of the update. */
function updateOptions(old: Obj): Options {
  const hooks = webhooksOf(old);
  const names = hooks.map((h) => String(h.name ?? ''));
  return {
    requireNoSideEffects: hooks.every((h) => isSet(h.sideEffects) && NO_SIDE_EFFECT_CLASSES.includes(String(h.sideEffects))),
    requireRecognizedAdmissionReviewVersion: hasAcceptedReviewVersions(hooks),
    requireUniqueWebhookNames: new Set(names).size === names.length,
    allowInvalidLabelValueInSelector: hooks.some((h) => selectorErrors(h, 'old').length > 0),
  };
}

function validateConfiguration(obj: Obj, mutating: boolean, opts: Options): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  webhooksOf(obj).forEach((hook, i) => {
    const path = `webhooks[${i}]`;
    errs.push(...validateWebhook(hook, mutating, opts, path));
    errs.push(...validateAdmissionReviewVersions(hook.admissionReviewVersions, opts.requireRecognizedAdmissionReviewVersion, `${path}.admissionReviewVersions`));
    const name = typeof hook.name === 'string' ? hook.name : '';
    if (opts.requireUniqueWebhookNames && name.length > 0) {
      if (names.has(name)) errs.push(duplicateField(`${path}.name`, name));
      else names.add(name);
    }
  });
  return errs;
}

/** validateValidatingWebhook / validateMutatingWebhook, in their order. */
function validateWebhook(hook: Obj, mutating: boolean, opts: Options, path: string): FieldError[] {
  const errs = isFullyQualifiedName(typeof hook.name === 'string' ? hook.name : '', `${path}.name`);
  if (Array.isArray(hook.rules)) hook.rules.forEach((rule: unknown, i: number) => errs.push(...validateRuleWithOperations(rule, `${path}.rules[${i}]`)));
  if (isSet(hook.failurePolicy) && !FAILURE_POLICIES.includes(String(hook.failurePolicy))) errs.push(notSupportedField(`${path}.failurePolicy`, String(hook.failurePolicy), FAILURE_POLICIES));
  if (isSet(hook.matchPolicy) && !MATCH_POLICIES.includes(String(hook.matchPolicy))) errs.push(notSupportedField(`${path}.matchPolicy`, String(hook.matchPolicy), MATCH_POLICIES));
  const allowedSideEffects = opts.requireNoSideEffects ? NO_SIDE_EFFECT_CLASSES : SIDE_EFFECT_CLASSES;
  if (!isSet(hook.sideEffects)) errs.push(requiredField(`${path}.sideEffects`, `must specify one of ${allowedSideEffects.join(', ')}`));
  else if (!allowedSideEffects.includes(String(hook.sideEffects))) errs.push(notSupportedField(`${path}.sideEffects`, String(hook.sideEffects), allowedSideEffects));
  if (typeof hook.timeoutSeconds === 'number' && (hook.timeoutSeconds > 30 || hook.timeoutSeconds < 1)) {
    errs.push(invalidField(`${path}.timeoutSeconds`, hook.timeoutSeconds, 'the timeout value must be between 1 and 30 seconds'));
  }
  const selectors = selectorErrors(hook, path);
  errs.push(...(opts.allowInvalidLabelValueInSelector ? selectors.filter((e) => !(e.type === 'Invalid' && EXPRESSION_VALUE.test(e.field))) : selectors));
  if (mutating && isSet(hook.reinvocationPolicy) && !REINVOCATION_POLICIES.includes(String(hook.reinvocationPolicy))) {
    errs.push(notSupportedField(`${path}.reinvocationPolicy`, String(hook.reinvocationPolicy), REINVOCATION_POLICIES));
  }
  errs.push(...validateWebhookClientConfig(hook.clientConfig, `${path}.clientConfig`));
  return errs;
}

const EXPRESSION_VALUE = /\.matchExpressions\[\d+\]\.values\[\d+\]$/;

/** The namespaceSelector's then the objectSelector's errors, match-expression values checked as label values. */
function selectorErrors(hook: Obj, path: string): FieldError[] {
  return [...validateLabelSelector(hook.namespaceSelector, `${path}.namespaceSelector`), ...validateLabelSelector(hook.objectSelector, `${path}.objectSelector`)];
}

/** utilvalidation.IsFullyQualifiedName: a DNS subdomain of at least three segments. */
function isFullyQualifiedName(name: string, path: string): FieldError[] {
  if (name.length === 0) return [requiredField(path, '')];
  const errs = isDns1123Subdomain(name);
  if (errs.length > 0) return [invalidField(path, name, errs.join(','))];
  if (name.split('.').length < 3) return [invalidField(path, name, 'should be a domain with at least three segments separated by dots')];
  return [];
}
