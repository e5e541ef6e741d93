/**
 * The compilation a v1.26 apiserver gives a CustomResourceDefinition's validation rules when the
 * CRD is written (apiextensions validation.go, ValidateCustomResourceDefinitionOpenAPISchema; the
 * plain checks of each rule and message are src/k8s/crd-schema-validation's): the rules of a
 * node whose rules, and those below it, pass the plain checks are compiled against the node's
 * type — a compile error is the FieldValueInvalid showing the rule as Go's %#v prints
 * apiextensions.ValidationRule, a transition rule (naming `oldSelf`) under a list that is not
 * `x-kubernetes-list-type: map` is refused, and rules on a node without a CEL type (only
 * `x-kubernetes-preserve-unknown-fields`) cannot be compiled at all. The schema's path is
 * `spec.validation.openAPIV3Schema` when every version has the same schema (the internal version
 * the apiserver validates holds it once), else `spec.versions[i].schema.openAPIV3Schema`. Not
 * covered: the estimated cost limits. Pure.
 */
import { internalField, invalidField, type FieldError } from '../k8s/field-errors';
import { goQuote } from '../k8s/resource-version';
import { compileCelRule } from './cel-environment';
import { typedEnvironments, type TypedEnvironments } from './cel-types';

type Obj = Record<string, any>;

/** The compile errors of every version's rules. */
export function crdValidationRuleErrors(crd: Obj): FieldError[] {
  const versions = (Array.isArray(crd.spec?.versions) ? crd.spec.versions : []) as Obj[];
  const schemas = versions.map((v) => v?.schema?.openAPIV3Schema as Obj | undefined);
  const shared = schemas.length > 0 && schemas.every((s) => JSON.stringify(s) === JSON.stringify(schemas[0]));
  const targets = shared ? [{ schema: schemas[0], path: 'spec.validation.openAPIV3Schema' }] : schemas.map((schema, i) => ({ schema, path: `spec.versions[${i}].schema.openAPIV3Schema` }));
  const errs: FieldError[] = [];
  for (const { schema, path } of targets) {
    if (typeof schema !== 'object' || schema === null) continue;
    walk(schema, path, typedEnvironments(schema), undefined, errs);
  }
  return errs;
}

/**
 * `uncorrelatable`: the path of the highest list above this node that is not a list-type map
 * (oldSelf has nothing to compare with there). Returns whether the node's rules and those below
 * it pass the plain checks.
 */
function walk(schema: Obj, path: string, typed: TypedEnvironments, uncorrelatable: string | undefined, errs: FieldError[]): boolean {
  let wellFormed = true;
  for (const [name, child] of Object.entries((schema.properties ?? {}) as Obj)) {
    if (typeof child === 'object' && child !== null) wellFormed = walk(child, `${path}.properties[${name}]`, typed, uncorrelatable, errs) && wellFormed;
  }
  if (typeof schema.additionalProperties === 'object' && schema.additionalProperties !== null) {
    wellFormed = walk(schema.additionalProperties, `${path}.additionalProperties`, typed, uncorrelatable, errs) && wellFormed;
  }
  if (typeof schema.items === 'object' && schema.items !== null && !Array.isArray(schema.items)) {
    const below = uncorrelatable ?? (schema['x-kubernetes-list-type'] === 'map' ? undefined : path);
    wellFormed = walk(schema.items, `${path}.items`, typed, below, errs) && wellFormed;
  }
  const rules = Array.isArray(schema['x-kubernetes-validations']) ? (schema['x-kubernetes-validations'] as Obj[]) : [];
  wellFormed = rules.every((r) => passesPlainChecks(r ?? {})) && wellFormed;
  // Compiled only when neither these rules nor any below them failed the plain checks.
  if (rules.length === 0 || !wellFormed) return wellFormed;
  const at = `${path}.x-kubernetes-validations`;
  const env = typed(schema);
  if (!env) {
    errs.push(internalField(at, 'internal error: failed to construct type information for x-kubernetes-validations rules: unable to convert structural schema to CEL declarations'));
    return true;
  }
  rules.forEach((r, i) => {
    const compiled = compileCelRule(String(r.rule), env);
    if (compiled.error !== undefined) {
      errs.push(invalidField(`${at}[${i}].rule`, { goSyntax: ruleGoSyntax(r) }, compiled.error));
    } else if (compiled.transition && uncorrelatable !== undefined) {
      errs.push(invalidField(`${at}[${i}].rule`, String(r.rule), `oldSelf cannot be used on the uncorrelatable portion of the schema within ${uncorrelatable}`));
    }
  });
  return true;
}

/** The plain checks of a rule (their errors are src/k8s/crd-schema-validation's): a rule, a message not blank and on one line, a message for a rule with line breaks. */
function passesPlainChecks(r: Obj): boolean {
  const rule = typeof r.rule === 'string' ? r.rule : '';
  const message = typeof r.message === 'string' ? r.message : '';
  if (rule.trim().length === 0) return false;
  if (message.length > 0 && message.trim().length === 0) return false;
  if (/[\n\r]/.test(message.trim())) return false;
  return !(/[\n\r]/.test(rule.trim()) && message.trim().length === 0);
}

/** `apiextensions.ValidationRule{Rule:"…", Message:""}`: Go's %#v of the rule. */
function ruleGoSyntax(r: Obj): string {
  return `apiextensions.ValidationRule{Rule:${goQuote(String(r.rule ?? ''))}, Message:${goQuote(String(r.message ?? ''))}}`;
}
