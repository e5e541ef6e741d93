/**
 * What a v1.26 apiserver checks of a CustomResourceDefinition's validation rules when the CRD is
 * written (apiextensions validation.go, ValidateCustomResourceDefinitionOpenAPISchema): per rule,
 * a rule is required, a message given must not be blank or hold line breaks, a rule with line
 * breaks needs a message; then each rule of a node whose own rules passed those checks is
 * compiled against the node's type — a compile error is the FieldValueInvalid showing the rule
 * as Go's %#v prints apiextensions.ValidationRule, a transition rule (naming `oldSelf`) under a
 * list that is not `x-kubernetes-list-type: map` is refused, and rules on a node without a CEL
 * type (only `x-kubernetes-preserve-unknown-fields`) cannot be compiled at all. The schema's path
 * is `spec.validation.openAPIV3Schema` when every version has the same schema (the internal
 * version the apiserver validates holds it once), else `spec.versions[i].schema.openAPIV3Schema`.
 * Not covered: the estimated cost limits. Pure.
 */
import { internalField, invalidField, requiredField, type FieldError } from '../k8s/field-errors';
import { goQuote } from '../k8s/resource-version';
import { compileCelRule } from './cel-environment';
import { typedEnvironments, type TypedEnvironments } from './cel-types';

type Obj = Record<string, any>;

/** The rule errors of every version's schema, schema errors first, then compile errors (as AllErrors orders them). */
export function crdValidationRuleErrors(crd: Obj): FieldError[] {
  const versions = (Array.isArray(crd.spec?.versions) ? crd.spec.versions : []) as Obj[];
  const schemas = versions.map((v) => v?.schema?.openAPIV3Schema as Obj | undefined);
  const shared = schemas.length > 0 && schemas.every((s) => JSON.stringify(s) === JSON.stringify(schemas[0]));
  const targets = shared ? [{ schema: schemas[0], path: 'spec.validation.openAPIV3Schema' }] : schemas.map((schema, i) => ({ schema, path: `spec.versions[${i}].schema.openAPIV3Schema` }));
  const schemaErrors: FieldError[] = [];
  const celErrors: FieldError[] = [];
  for (const { schema, path } of targets) {
    if (typeof schema !== 'object' || schema === null) continue;
    walk(schema, path, typedEnvironments(schema), undefined, schemaErrors, celErrors);
  }
  return [...schemaErrors, ...celErrors];
}

/** `uncorrelatable`: the path of the highest list above this node that is not a list-type map (oldSelf has nothing to compare with there). */
function walk(schema: Obj, path: string, typed: TypedEnvironments, uncorrelatable: string | undefined, schemaErrors: FieldError[], celErrors: FieldError[]): void {
  const start = schemaErrors.length;
  for (const [name, child] of Object.entries((schema.properties ?? {}) as Obj)) {
    if (typeof child === 'object' && child !== null) walk(child, `${path}.properties[${name}]`, typed, uncorrelatable, schemaErrors, celErrors);
  }
  if (typeof schema.additionalProperties === 'object' && schema.additionalProperties !== null) {
    walk(schema.additionalProperties, `${path}.additionalProperties`, typed, uncorrelatable, schemaErrors, celErrors);
  }
  if (typeof schema.items === 'object' && schema.items !== null && !Array.isArray(schema.items)) {
    const below = uncorrelatable ?? (schema['x-kubernetes-list-type'] === 'map' ? undefined : path);
    walk(schema.items, `${path}.items`, typed, below, schemaErrors, celErrors);
  }
  const rules = Array.isArray(schema['x-kubernetes-validations']) ? (schema['x-kubernetes-validations'] as Obj[]) : [];
  if (rules.length === 0) return;
  const at = `${path}.x-kubernetes-validations`;
  rules.forEach((r, i) => {
    const error = staticRuleError(r ?? {}, `${at}[${i}]`);
    if (error) schemaErrors.push(error);
  });
  // Compiled only when neither these rules nor any below them has a schema error.
  if (schemaErrors.length > start) return;
  const env = typed(schema);
  if (!env) {
    celErrors.push(internalField(at, 'internal error: failed to construct type information for x-kubernetes-validations rules: unable to convert structural schema to CEL declarations'));
    return;
  }
  rules.forEach((r, i) => {
    const compiled = compileCelRule(String(r.rule), env);
    if (compiled.error !== undefined) {
      celErrors.push(invalidField(`${at}[${i}].rule`, { goSyntax: ruleGoSyntax(r) }, compiled.error));
    } else if (compiled.transition && uncorrelatable !== undefined) {
      celErrors.push(invalidField(`${at}[${i}].rule`, String(r.rule), `oldSelf cannot be used on the uncorrelatable portion of the schema within ${uncorrelatable}`));
    }
  });
}

function staticRuleError(r: Obj, at: string): FieldError | undefined {
  const rule = typeof r.rule === 'string' ? r.rule : '';
  const message = typeof r.message === 'string' ? r.message : '';
  if (rule.trim().length === 0) return requiredField(`${at}.rule`, 'rule is not specified');
  if (message.length > 0 && message.trim().length === 0) return invalidField(`${at}.message`, message, 'message must be non-empty if specified');
  if (/[\n\r]/.test(message.trim())) return invalidField(`${at}.message`, message, 'message must not contain line breaks');
  if (/[\n\r]/.test(rule.trim()) && message.trim().length === 0) return requiredField(`${at}.message`, 'message must be specified if rule contains line breaks');
  return undefined;
}

/** `apiextensions.ValidationRule{Rule:"…", Message:""}`: Go's %#v of the rule. */
function ruleGoSyntax(r: Obj): string {
  return `apiextensions.ValidationRule{Rule:${goQuote(String(r.rule ?? ''))}, Message:${goQuote(String(r.message ?? ''))}}`;
}
