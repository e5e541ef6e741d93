/**
 * A CRD validation rule's estimated cost as kube-apiserver v1.26 computes it when the CRD is
 * written: cel-go v0.12.7's `checker.Cost` over the checked expression (identifiers and field
 * selections 1 each, constants 0, list literals 10, map literals 30, calls by ./cel-cost-functions,
 * the comprehensions the macros `all`, `exists`, `exists_one`, `map` and `filter` expand to: their
 * step and loop condition times the size of the range), with the sizes of the rule's values from
 * its schema node's types (./cel-decl-sizes) found by the field path from `self`, as the
 * apiextensions size estimator finds them. Walks the CEL library's checked tree, costing each
 * macro as cel-go's expansion of it. Where the tree cannot tell what cel-go's parser made, the
 * estimate is the lower: a shape it does not know (optional syntax, `cel.bind`) costs 0, a
 * parenthesised double negation `!(!x)` costs as `x`. Pure.
 */
import type { Environment } from '@marcbachmann/cel-js' with { 'resolution-mode': 'import' };
import { add, functionCost, MAX_U64, multiply, ONE, union, UNKNOWN_SIZE, ZERO, type CostNode, type Range } from './cel-cost-functions';
import { overloads, typeKind } from './cel-cost-overloads';
import type { DeclSize } from './cel-decl-sizes';

type Node = { op: string; args: any; checkedType?: { name?: string } };

const LIST_CREATE = { min: 10n, max: 10n };
const MAP_CREATE = { min: 30n, max: 30n };
const MACROS: Record<string, number[]> = { all: [2], exists: [2], exists_one: [2], map: [2, 3], filter: [2] };
const SCALARS = new Set(['int', 'uint', 'double', 'bool', 'google.protobuf.Duration', 'google.protobuf.Timestamp']);

/** The rule's estimated maximum cost (`EstimateCost(...).Max`) in `typed` (its node's environment, ./cel-types), with `root` the sizes of the node's type; 0 when it does not check. */
export function estimateRuleCost(rule: string, typed: Environment, root: DeclSize): bigint {
  let ast: Node;
  try {
    const program = typed.parse(rule);
    if (!program.check().valid) return 0n;
    ast = program.ast as Node;
  } catch {
    return 0n;
  }
  return new Coster(root).cost(ast).max;
}

const typeOf = (n: Node): string | undefined => n.checkedType?.name;
const isNode = (n: unknown): n is Node => typeof n === 'object' && n !== null && typeof (n as Node).op === 'string';

/** `-1`: cel-go parses a negative number as one constant. */
function negativeLiteral(n: Node): boolean {
  return n.op === '-_' && isNode(n.args) && n.args.op === 'value' && (typeof n.args.args === 'number' || typeof n.args.args === 'bigint');
}

/** checker.coster: the cost of each expression, the field paths of expressions that select from a variable, the sizes of calls' results. */
class Coster {
  private readonly paths = new Map<Node, readonly string[]>();
  private readonly resultSizes = new Map<Node, Range>();
  private readonly iterRanges = new Map<string, Node[]>();

  constructor(private readonly root: DeclSize) {}

  cost(n: unknown): Range {
    if (!isNode(n)) return ZERO;
    const args = n.args;
    switch (n.op) {
      case 'value':
        return ZERO;
      case 'id':
        return this.ident(n);
      case '.':
        return this.select(n);
      case 'list':
        return add((args as unknown[]).map((e) => this.cost(e)).reduce(add, ZERO), LIST_CREATE);
      case 'map':
        return add((args as unknown[][]).map(([k, v]) => add(this.cost(k), this.cost(v))).reduce(add, ZERO), MAP_CREATE);
      case 'call': {
        // has(x.f) is a presence test: cel-go costs it nothing, its operand included.
        if (args[0] === 'has') return ZERO;
        return this.call(n, String(args[0]), undefined, args[1] as Node[]);
      }
      case 'rcall': {
        const name = String(args[0]);
        const list = args[2] as Node[];
        if (MACROS[name]?.includes(list.length) && list[0]?.op === 'id') return this.comprehension(name, args[1] as Node, String(list[0].args), list.slice(1));
        return this.call(n, name, args[1] as Node, list);
      }
      case '-_':
      case '!_':
        return this.unary(n);
      case '&&': case '||': case '?:': case '==': case '!=': case '<': case '<=': case '>': case '>=':
      case '+': case '-': case '*': case '/': case '%': case 'in': case '[]':
        return this.call(n, n.op, undefined, args as Node[]);
      default:
        // Optional selections and indexes, bind, …: not in v1.26's CEL; costed 0.
        return ZERO;
    }
  }

  /**
   * `!x`, `-x`: cel-go's parser drops an even number of `!` or `-` written together (`!!x` is
   * `x`), and `-1` is one constant. Chains are counted whether or not they are parenthesised
   * (`!(!x)` is two calls to cel-go: costed 2 less here) and a chain over a number costs 0.
   */
  private unary(n: Node): Range {
    let operand = n.args as Node;
    let count = 1;
    while (isNode(operand) && operand.op === n.op) {
      operand = operand.args as Node;
      count++;
    }
    if (n.op === '-_' && isNode(operand) && operand.op === 'value' && (typeof operand.args === 'number' || typeof operand.args === 'bigint')) return ZERO;
    return count % 2 === 0 ? this.cost(operand) : this.call(n, n.op, undefined, [operand]);
  }

  /** An identifier: a comprehension's variable has the path of its range's elements (or keys), any other the variable's name. */
  private ident(n: Node): Range {
    const name = String(n.args);
    const ranges = this.iterRanges.get(name);
    const range = ranges?.[ranges.length - 1];
    if (range) {
      const kind = typeKind(typeOf(range));
      if (kind === 'list' || kind === 'map') this.paths.set(n, [...(this.paths.get(range) ?? []), kind === 'list' ? '@items' : '@keys']);
    } else {
      this.paths.set(n, [name]);
    }
    return ONE;
  }

  /** A field selection: its operand, and 1 more where the operand is a map or an object. */
  private select(n: Node): Range {
    const [operand, field] = n.args as [Node, string];
    let sum = this.cost(operand);
    const kind = typeKind(typeOf(operand));
    if (kind === 'map' || kind === 'object' || kind === 'param') sum = add(sum, ONE);
    this.paths.set(n, [...(this.paths.get(operand) ?? []), field]);
    return sum;
  }

  /** A call: its arguments, its target, and the widest of its overloads' costs. */
  private call(n: Node, fn: string, target: Node | undefined, args: Node[]): Range {
    const argCosts = args.map((a) => this.cost(a));
    const argNodes = args.map((a) => this.costNode(a));
    let sum = ZERO;
    let targetNode: CostNode | undefined;
    if (target) {
      sum = this.cost(target);
      targetNode = this.costNode(target);
    }
    let fnCost: Range = { min: MAX_U64, max: 0n };
    let resultSize: Range | undefined;
    for (const overload of overloads(fn, target, args)) {
      const estimate = functionCost(fn, overload, targetNode, argNodes, argCosts, this);
      fnCost = union(fnCost, estimate.cost);
      if (estimate.resultSize) resultSize = resultSize ? union(resultSize, estimate.resultSize) : estimate.resultSize;
      if (overload === 'index_list' || overload === 'index_map') this.paths.set(n, [...(this.paths.get(args[0]!) ?? []), overload === 'index_list' ? '@items' : '@values']);
    }
    if (resultSize) this.resultSizes.set(n, resultSize);
    return add(sum, fnCost);
  }

  /**
   * A macro, costed as cel-go's expansion: a fold over the range with an accumulator `__result__`
   * (its reads cost 1) — all: init true, loop `@not_strictly_false(__result__)` (2), step
   * `__result__ && p`; exists: loop `@not_strictly_false(!__result__)` (3), step `__result__ || p`;
   * exists_one: init 0, loop true, step `p ? __result__ + 1 : __result__`, result
   * `__result__ == 1` (2); map: init `[]` (10), step `__result__ + [f]` (`p ? … : __result__`
   * with a filter); filter: step `p ? __result__ + [x] : __result__`. The result reads the
   * accumulator (1) except exists_one's. Range, init and result once; loop and step per element.
   */
  private comprehension(macro: string, range: Node, iterVar: string, args: Node[]): Range {
    let sum = this.cost(range);
    const stack = this.iterRanges.get(iterVar) ?? [];
    this.iterRanges.set(iterVar, [...stack, range]);
    const costs = args.map((a) => this.cost(a));
    this.iterRanges.set(iterVar, stack);
    let init = ZERO;
    let loop = ZERO;
    let step: Range;
    let result = ONE;
    const p = costs[0]!;
    const and = (r: Range) => ({ min: ONE.min, max: add(ONE, r).max });
    switch (macro) {
      case 'all':
        loop = { min: 2n, max: 2n };
        step = and(p);
        break;
      case 'exists':
        loop = { min: 3n, max: 3n };
        step = and(p);
        break;
      case 'exists_one':
        step = add(p, union({ min: 2n, max: 2n }, ONE));
        result = { min: 2n, max: 2n };
        break;
      case 'map': {
        init = LIST_CREATE;
        const push = add(costs[costs.length - 1]!, { min: 12n, max: 12n });
        step = costs.length === 2 ? add(p, union(push, ONE)) : push;
        break;
      }
      default:
        init = LIST_CREATE;
        step = add(p, union({ min: 13n, max: 13n }, ONE));
        break;
    }
    sum = add(add(sum, init), result);
    return add(sum, multiply(this.size(this.costNode(range)), add(step, loop)));
  }

  /** checker.astNode: the expression's path, type, and size when the expression gives it (a call's result, a literal). */
  private costNode(n: Node): CostNode {
    const constant = n.op === 'value' || negativeLiteral(n) ? { value: n.op === 'value' ? n.args : -(n.args.args as bigint) } : undefined;
    return { path: this.paths.get(n), type: typeOf(n), computed: this.resultSizes.get(n) ?? literalSize(n), constant };
  }

  /** The size estimator of apiextensions: the max elements of the type the path leads to from the rule's node. */
  private estimateSize(n: CostNode): Range | undefined {
    if (!n.path || n.path.length === 0) return undefined;
    let decl: DeclSize | undefined = this.root;
    for (const name of n.path.slice(1)) {
      decl = name === '@items' || name === '@values' ? decl.elem : name === '@keys' ? decl.key : decl.fields?.get(name);
      if (!decl) return undefined;
    }
    return { min: 0n, max: BigInt.asUintN(64, decl.maxElements) };
  }

  /** coster.sizeEstimate: computed, estimated, 1 for types of fixed size, else unbounded. */
  size(n: CostNode): Range {
    const known = n.computed ?? this.estimateSize(n);
    if (known) return known;
    return n.type === undefined || SCALARS.has(n.type) ? ONE : UNKNOWN_SIZE;
  }

  /** library.CostEstimator.sizeEstimate: computed, estimated, else unbounded. */
  librarySize(n: CostNode): Range {
    return n.computed ?? this.estimateSize(n) ?? UNKNOWN_SIZE;
  }
}

/** astNode.ComputedSize of a literal: a string's bytes, a list's elements, a map's entries, 1 for other constants. */
function literalSize(n: Node): Range | undefined {
  let v: bigint;
  if (n.op === 'value') {
    const x = n.args;
    v = typeof x === 'string' ? BigInt(Buffer.byteLength(x)) : x instanceof Uint8Array ? BigInt(x.length) : 1n;
  } else if (negativeLiteral(n)) v = 1n;
  else if (n.op === 'list' || n.op === 'map') v = BigInt((n.args as unknown[]).length);
  else return undefined;
  return { min: v, max: v };
}
