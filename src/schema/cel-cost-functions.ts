/**
 * The estimated costs of CEL function calls as kube-apiserver v1.26 estimates them: cel-go
 * v0.12.7's checker `functionCost` (string traversals at 0.1 per byte, `matches` and `contains` as
 * products of the two lengths, `in` of a list, `+` of strings and lists, comparisons of strings
 * and of anything by the smaller size, `&&`, `||`, `?:`, else 1), and before it Kubernetes'
 * `EstimateCallCost` of its libraries by function name (lists, strings, regex, URL;
 * k8s.io/apiserver pkg/cel/library/cost.go). Costs and sizes are uint64 ranges that saturate as
 * Go's do. Pure.
 */

export const MAX_U64 = (1n << 64n) - 1n;

/** A cost or size estimate: cel-go's CostEstimate / SizeEstimate. */
export interface Range {
  min: bigint;
  max: bigint;
}

export const ZERO: Range = { min: 0n, max: 0n };
export const ONE: Range = { min: 1n, max: 1n };
export const UNKNOWN_SIZE: Range = { min: 0n, max: MAX_U64 };

const satAdd = (a: bigint, b: bigint) => (a + b > MAX_U64 ? MAX_U64 : a + b);
const satMul = (a: bigint, b: bigint) => (a * b > MAX_U64 ? MAX_U64 : a * b);

export const add = (a: Range, b: Range): Range => ({ min: satAdd(a.min, b.min), max: satAdd(a.max, b.max) });
export const multiply = (a: Range, b: Range): Range => ({ min: satMul(a.min, b.min), max: satMul(a.max, b.max) });
export const union = (a: Range, b: Range): Range => ({ min: a.min < b.min ? a.min : b.min, max: a.max > b.max ? a.max : b.max });

/** Go's uint64() of a float64 on amd64: a value from 2^64 up (an unbounded size, 2^64 - 1, is 2^64 as a float64) becomes 2^63. */
export function goUint64(f: number): bigint {
  return f >= 18446744073709551616 ? 1n << 63n : BigInt(f);
}

/** multiplyByCostFactor: the float product rounded up (in float64, as Go computes it); over 2^64 it saturates. */
function byFactor(x: bigint, factor: number): bigint {
  const xf = Number(x);
  if (xf > 0 && factor > 0 && xf > 18446744073709551615 / factor) return MAX_U64;
  return goUint64(Math.ceil(xf * factor));
}

export const costFactor = (r: Range, factor: number): Range => ({ min: byFactor(r.min, factor), max: byFactor(r.max, factor) });

/** What a cost rule sees of an argument (cel-go's checker.AstNode): its field path from a variable, its checked type, its size when the expression gives it, its value when constant. */
export interface CostNode {
  path?: readonly string[];
  type?: string;
  computed?: Range;
  constant?: { value: unknown };
}

/** The two size estimates: the checker's (`scalars`: types of fixed size count 1) and the Kubernetes library's (unknown is unbounded). */
export interface SizeEstimates {
  size(n: CostNode): Range;
  librarySize(n: CostNode): Range;
}

/** cel-go's overload ids the cost rules tell apart; every other overload is `other`. */
export type Overload =
  | 'string_to_bytes' | 'bytes_to_string' | 'starts_with_string' | 'ends_with_string' | 'in_list' | 'matches_string' | 'contains_string'
  | 'logical_or' | 'logical_and' | 'conditional' | 'add_string' | 'add_bytes' | 'add_list' | 'compare_string' | 'compare_bytes'
  | 'equals' | 'not_equals' | 'index_list' | 'index_map' | 'other';

export interface CallEstimate {
  cost: Range;
  resultSize?: Range;
}

const sum = (costs: readonly Range[]) => costs.reduce(add, ZERO);

/** checker.coster.functionCost: the cost of one overload of a call (its arguments' costs included; not its target's). */
export function functionCost(fn: string, overload: Overload, target: CostNode | undefined, args: readonly CostNode[], argCosts: readonly Range[], sizes: SizeEstimates): CallEstimate {
  const argSum = sum(argCosts);
  const library = libraryCallCost(fn, target, args, sizes);
  if (library) return { cost: add(library.cost, argSum), resultSize: library.resultSize };
  const size = (n: CostNode) => sizes.size(n);
  switch (overload) {
    case 'string_to_bytes':
    case 'bytes_to_string':
      if (args.length === 1) {
        const sz = size(args[0]!);
        const resultSize = overload === 'string_to_bytes' ? { min: sz.min, max: BigInt.asUintN(64, sz.max * 4n) } : { min: sz.min / 4n, max: sz.max };
        return { cost: add(costFactor(sz, 0.1), argSum), resultSize };
      }
      break;
    case 'starts_with_string':
    case 'ends_with_string':
      if (args.length === 1) return { cost: add(costFactor(size(args[0]!), 0.1), argSum) };
      break;
    case 'in_list':
      if (args.length === 2) return { cost: add(costFactor(size(args[1]!), 1), argSum) };
      break;
    case 'matches_string':
      if (target && args.length === 1) {
        const strCost = costFactor(add(size(target), ONE), 0.1);
        return { cost: add(multiply(strCost, costFactor(size(args[0]!), 0.25)), argSum) };
      }
      break;
    case 'contains_string':
      if (target && args.length === 1) return { cost: add(multiply(costFactor(size(target), 0.1), costFactor(size(args[0]!), 0.1)), argSum) };
      break;
    case 'logical_or':
    case 'logical_and':
      return { cost: { min: argCosts[0]!.min, max: add(argCosts[0]!, argCosts[1]!).max } };
    case 'conditional':
      return { cost: add(argCosts[0]!, union(argCosts[1]!, argCosts[2]!)), resultSize: union(size(args[1]!), size(args[2]!)) };
    case 'add_string':
    case 'add_bytes':
    case 'add_list':
      if (args.length === 2) {
        const resultSize = add(size(args[0]!), size(args[1]!));
        return { cost: add(overload === 'add_list' ? ONE : costFactor(resultSize, 0.1), argSum), resultSize };
      }
      break;
    case 'compare_string':
    case 'compare_bytes':
    case 'equals':
    case 'not_equals': {
      const lhs = size(args[0]!);
      const rhs = size(args[1]!);
      const smallestMax = rhs.max < lhs.max ? rhs.max : lhs.max;
      return { cost: add(costFactor({ min: smallestMax > 0n ? 1n : 0n, max: smallestMax }, 0.1), argSum) };
    }
    default:
      break;
  }
  return { cost: add(ONE, argSum) };
}

/** library.CostEstimator.EstimateCallCost, by function name (its arguments' costs not included), or undefined for the checker's rules. */
function libraryCallCost(fn: string, target: CostNode | undefined, args: readonly CostNode[], sizes: SizeEstimates): CallEstimate | undefined {
  const size = (n: CostNode) => sizes.librarySize(n);
  switch (fn) {
    case 'isSorted':
    case 'sum':
    case 'max':
    case 'min':
    case 'indexOf':
    case 'lastIndexOf': {
      if (!target) return undefined;
      const element = listElement(target);
      // A string's indexOf traverses it once.
      if (!element) return { cost: costFactor(size(target), 0.1) };
      // Each element is compared once; strings and bytes also cost their traversal.
      const elementCost = element.type === 'string' || element.type === 'bytes' ? add(ONE, costFactor(size(element), 0.1)) : ONE;
      return { cost: multiply(size(target), elementCost) };
    }
    case 'url':
      return args.length === 1 ? { cost: costFactor(size(args[0]!), 0.1) } : undefined;
    case 'lowerAscii':
    case 'upperAscii':
    case 'substring':
    case 'trim': {
      if (!target) return undefined;
      const sz = size(target);
      return { cost: costFactor(sz, 0.1), resultSize: sz };
    }
    case 'replace':
      return target && args.length >= 2 ? { cost: costFactor(size(target), 0.2), resultSize: replacedSize(size(target), size(args[0]!), size(args[1]!)) } : undefined;
    case 'split': {
      if (!target) return undefined;
      const sz = size(target);
      // split(sep, n) with a constant n has at most n parts (a negative n, as uint64, no bound).
      const n = args.length > 1 ? args[1]!.constant?.value : undefined;
      const max = args.length > 1 && args[1]!.constant ? BigInt.asUintN(64, typeof n === 'bigint' ? n : 0n) : sz.max;
      return { cost: costFactor(sz, 0.2), resultSize: { min: 0n, max } };
    }
    case 'join': {
      if (!target) return undefined;
      const listSize = size(target);
      const element = listElement(target);
      let sz = element ? multiply(listSize, size(element)) : ZERO;
      if (args.length > 0) {
        const separators = { min: listSize.min > 0n ? listSize.min - 1n : 0n, max: listSize.max > 0n ? listSize.max - 1n : 0n };
        sz = add(sz, multiply(size(args[0]!), separators));
      }
      return { cost: costFactor(sz, 0.1), resultSize: sz };
    }
    case 'find':
    case 'findAll': {
      if (!target || args.length < 1) return undefined;
      const sz = size(target);
      const strCost = costFactor(add(sz, ONE), 0.1);
      return { cost: multiply(strCost, costFactor(size(args[0]!), 0.25)), resultSize: { min: 0n, max: sz.max } };
    }
    default:
      return undefined;
  }
}

/** The size of `replace`'s result: the most and fewest replacements, each by the longest and shortest replacement. */
function replacedSize(sz: Range, toReplace: Range, replaceWith: Range): Range {
  const count = { min: 0n, max: 0n };
  const retained = { min: 0n, max: 0n };
  if (toReplace.min === 0n) {
    count.max = sz.max < MAX_U64 ? sz.max + 1n : sz.max;
    retained.max = sz.max;
  } else if (replaceWith.max <= toReplace.min) {
    retained.max = sz.max;
  } else {
    count.max = goUint64(Math.ceil(Number(sz.max) / Number(toReplace.min)));
  }
  if (toReplace.max === 0n) {
    count.min = sz.min < MAX_U64 ? sz.min + 1n : sz.min;
    retained.min = sz.min;
  } else if (toReplace.max <= replaceWith.min) {
    retained.min = sz.min;
  } else {
    count.min = goUint64(Math.ceil(Number(sz.min) / Number(toReplace.max)));
  }
  return add(multiply(count, replaceWith), retained);
}

/** The element of a list-typed node (its path extended by `@items` when it has one), or undefined for other types. */
export function listElement(list: CostNode): CostNode | undefined {
  const elem = listElementType(list.type);
  if (elem === undefined) return undefined;
  return list.path ? { path: [...list.path, '@items'], type: elem } : { type: elem };
}

/** `list<T>` → T. */
function listElementType(type: string | undefined): string | undefined {
  const m = /^list<(.*)>$/.exec(type ?? '');
  return m ? m[1]! : undefined;
}
