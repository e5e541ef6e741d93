/**
 * The estimated cost limits a v1.26 apiserver puts on a CRD's validation rules when the CRD is
 * written (apiextensions validation.go and cel_validation.go): a rule's cost is its estimated cost
 * times the most times its schema node can occur — the product of the `maxItems` and
 * `maxProperties` of the lists and maps above it, or, where one of them has no bound, how many
 * values of the node's type fit in a request — and may not exceed 10,000,000; the costs of all a
 * schema's rules may not add up to more than 100,000,000. The messages are getCostErrorMessage's.
 * Pure.
 */
import { forbiddenField, type FieldError } from '../k8s/field-errors';
import { maxCardinality, type DeclSize } from './cel-decl-sizes';

type Obj = Record<string, any>;

export const STATIC_ESTIMATED_COST_LIMIT = 10_000_000n;
export const STATIC_ESTIMATED_CRD_COST_LIMIT = 100_000_000n;
const MAX_U64 = (1n << 64n) - 1n;

/** The cost total of one schema's rules and its (at most 4) most expensive rules of at least 1% of the limit, most expensive first. */
export interface CostTotal {
  total: bigint;
  mostExpensive: { field: string; cost: bigint }[];
}

/** multiplyWithOverflowGuard. */
function multiply(base: bigint, cardinality: bigint): bigint {
  if (base === 0n) return 0n;
  return base * cardinality > MAX_U64 ? MAX_U64 : base * cardinality;
}

/** The most times a child of `schema` can occur, from `cardinality` (the schema's own; undefined: no bound): times a list's maxItems or a map's maxProperties (no bound without them), an object's properties as often as the object. */
export function childCardinality(schema: Obj, cardinality: bigint | undefined): bigint | undefined {
  if (cardinality === undefined) return undefined;
  const bound = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? BigInt(Math.max(0, Math.trunc(v))) : undefined);
  let factor: bigint | undefined = 1n;
  if (schema.type === 'object' && schema.additionalProperties !== undefined && schema.additionalProperties !== null) factor = bound(schema.maxProperties);
  else if (schema.type === 'array') factor = bound(schema.maxItems);
  return factor === undefined ? undefined : multiply(cardinality, factor);
}

/** getExpressionCost: the rule's estimated cost times its node's cardinality, or, without a bound, times the node type's MaxCardinality. */
export function expressionCost(maxCost: bigint, cardinality: bigint | undefined, node: DeclSize): bigint {
  return multiply(maxCost, cardinality ?? maxCardinality(node.minSize));
}

/** TotalCost.ObserveExpressionCost. */
export function observeRuleCost(total: CostTotal, field: string, cost: bigint): void {
  total.total = total.total + cost > MAX_U64 ? MAX_U64 : total.total + cost;
  if (cost < STATIC_ESTIMATED_CRD_COST_LIMIT / 100n) return;
  total.mostExpensive.push({ field, cost });
  total.mostExpensive.sort((a, b) => (a.cost === b.cost ? 0 : a.cost > b.cost ? -1 : 1));
  total.mostExpensive.length = Math.min(total.mostExpensive.length, 4);
}

/** The errors of a schema whose rules' total exceeds the limit: each most expensive rule's, then the schema's. */
export function schemaCostTotalErrors(total: CostTotal, schemaPath: string): FieldError[] {
  if (total.total <= STATIC_ESTIMATED_CRD_COST_LIMIT) return [];
  return [
    ...total.mostExpensive.map((e) => forbiddenField(e.field, 'contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema')),
    forbiddenField(schemaPath, estimatedCostError('x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema', total.total, STATIC_ESTIMATED_CRD_COST_LIMIT)),
  ];
}

/** getCostErrorMessage: the factor by which the cost exceeds the limit (`%f` below 1.5, `%.1f` to 100, then "more than 100x"). */
export function estimatedCostError(costName: string, cost: bigint, limit: bigint): string {
  const exceed = Number(cost) / Number(limit);
  const factor = exceed > 100 ? 'more than 100x' : `${goFixed(exceed, exceed < 1.5 ? 6 : 1)}x`;
  return `${costName} exceeds budget by factor of ${factor} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`;
}

/** Go's %.Nf of a float64 of at least 1: the exact binary value rounded half to even. */
function goFixed(x: number, digits: number): string {
  // x ≥ 1 is a multiple of 2^-52, so x·2^52 is an exact integer.
  const den = 1n << 52n;
  const num = BigInt(x * 2 ** 52) * 10n ** BigInt(digits);
  let q = num / den;
  const r2 = (num % den) * 2n;
  if (r2 > den || (r2 === den && q % 2n === 1n)) q++;
  const s = q.toString().padStart(digits + 1, '0');
  return `${s.slice(0, -digits)}.${s.slice(-digits)}`;
}
