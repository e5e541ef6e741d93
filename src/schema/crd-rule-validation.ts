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
 * the apiserver validates holds it once), else `spec.versions[i].schema.openAPIV3Schema`. A rule
 * whose estimated cost (./cel-cost) times the most times its node can occur exceeds
 * 10,000,000 is Forbidden, and so is a schema whose rules' costs add up to more than 100,000,000
 * (./cel-cost-limits). Pure.
 */
import { forbiddenField, internalField, invalidField, type FieldError } from '../k8s/field-errors';
import { goQuote } from '../k8s/resource-version';
import { childCardinality, estimatedCostError, expressionCost, observeRuleCost, schemaCostTotalErrors, STATIC_ESTIMATED_COST_LIMIT, type CostTotal } from './cel-cost-limits';
import { estimateRuleCost } from './cel-cost';
import { schemaDeclSize } from './cel-decl-sizes';
import { compileCelRule } from './cel-environment';
import { hasRules } from './cel-validator';
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
    if (typeof schema !== 'object' || schema === null || !hasRules(schema)) continue;
    const total: CostTotal = { total: 0n, mostExpensive: [] };
    walk(schema, path, { typed: typedEnvironments(schema), total, root: true }, undefined, 1n, errs);
    errs.push(...schemaCostTotalErrors(total, path));
  }
  return errs;
}

/** One schema's walk: its nodes' environments, its rules' cost total, whether the node is the root. */
interface Walk {
  typed: TypedEnvironments;
  total: CostTotal;
  root: boolean;
}

/**
 * `uncorrelatable`: the path of the highest list above this node that is not a list-type map
 * (oldSelf has nothing to compare with there). `cardinality`: the most times the node can occur
 * (the product of the maxItems and maxProperties above it), undefined where a list or map above
 * it has no bound. Returns whether the node's rules and those below it pass the plain checks.
 */
function walk(schema: Obj, path: string, w: Walk, uncorrelatable: string | undefined, cardinality: bigint | undefined, errs: FieldError[]): boolean {
  let wellFormed = true;
  const below = { ...w, root: false };
  const childCount = childCardinality(schema, cardinality);
  for (const [name, child] of Object.entries((schema.properties ?? {}) as Obj)) {
    if (typeof child === 'object' && child !== null) wellFormed = walk(child, `${path}.properties[${name}]`, below, uncorrelatable, childCount, errs) && wellFormed;
  }
  if (typeof schema.additionalProperties === 'object' && schema.additionalProperties !== null) {
    wellFormed = walk(schema.additionalProperties, `${path}.additionalProperties`, below, uncorrelatable, childCount, errs) && wellFormed;
  }
  if (typeof schema.items === 'object' && schema.items !== null && !Array.isArray(schema.items)) {
    const uncorrelatableBelow = uncorrelatable ?? (schema['x-kubernetes-list-type'] === 'map' ? undefined : path);
    wellFormed = walk(schema.items, `${path}.items`, below, uncorrelatableBelow, childCount, errs) && wellFormed;
  }
  const rules = Array.isArray(schema['x-kubernetes-validations']) ? (schema['x-kubernetes-validations'] as Obj[]) : [];
  wellFormed = rules.every((r) => passesPlainChecks(r ?? {})) && wellFormed;
  // Compiled only when neither these rules nor any below them failed the plain checks.
  if (rules.length === 0 || !wellFormed) return wellFormed;
  const at = `${path}.x-kubernetes-validations`;
  const env = w.typed(schema);
  if (!env) {
    errs.push(internalField(at, 'internal error: failed to construct type information for x-kubernetes-validations rules: unable to convert structural schema to CEL declarations'));
    return true;
  }
  const sizes = schemaDeclSize(schema, w.root || schema['x-kubernetes-embedded-resource'] === true);
  rules.forEach((r, i) => {
    const compiled = compileCelRule(String(r.rule), env);
    // A rule that does not compile has no cost.
    const cost = compiled.error === undefined && sizes ? expressionCost(estimateRuleCost(String(r.rule), env, sizes), cardinality, sizes) : 0n;
    if (cost > STATIC_ESTIMATED_COST_LIMIT) errs.push(forbiddenField(`${at}[${i}].rule`, estimatedCostError('estimated rule cost', cost, STATIC_ESTIMATED_COST_LIMIT)));
    observeRuleCost(w.total, `${at}[${i}].rule`, cost);
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
