/**
 * Operators cel-go v0.12 evaluates otherwise than the CEL library, as kube-apiserver v1.26 builds
 * its programs (cel.OptOptimize): `x in [constants]` is a set membership test — false for an
 * empty list without evaluating `x`, false when `x` is an error (a missing field), numbers
 * matching across int/uint/double where the conversion is lossless; `<`, `<=`, `>`, `>=` with a
 * NaN fail with `NaN values cannot be ordered`; the lowest int divided by (or modulo) -1 fails
 * with `integer overflow`. The parsed expression's nodes of these operators are given their
 * evaluation here (the library evaluates a node by its own `evaluate`). Pure.
 */

type Node = { op?: string; args?: unknown; handle?: (l: unknown, r: unknown, ast: Node, ev: Evaluator) => unknown; evaluate?: Evaluate };
type Evaluator = { run(ast: Node, ctx: unknown): unknown };
type Evaluate = (ev: Evaluator, ast: Node, ctx: unknown) => unknown;

const MIN_INT = -(2n ** 63n);
const RELATIONS = new Set(['<', '<=', '>', '>=']);

/** Gives the expression's `in`, relation, `/` and `%` nodes cel-go's evaluation. */
export function useGoOperators(ast: unknown): void {
  if (Array.isArray(ast)) {
    for (const n of ast) useGoOperators(n);
    return;
  }
  if (typeof ast !== 'object' || ast === null) return;
  const node = ast as Node;
  if (node.op === 'value' || node.op === 'id') return;
  if (node.op === 'in') {
    const set = constantList((node.args as Node[])[1]);
    if (set) node.evaluate = (ev, n, ctx) => setMembership(ev, n, ctx, set);
  } else if (RELATIONS.has(node.op!)) {
    node.evaluate = (ev, n, ctx) => {
      const [l, r] = operands(ev, n, ctx);
      if (Number.isNaN(l) || Number.isNaN(r)) throw new Error('NaN values cannot be ordered');
      return n.handle!(l, r, n, ev);
    };
  } else if (node.op === '/' || node.op === '%') {
    node.evaluate = (ev, n, ctx) => {
      const [l, r] = operands(ev, n, ctx);
      if (l === MIN_INT && r === -1n) throw new Error('integer overflow');
      return n.handle!(l, r, n, ev);
    };
  }
  useGoOperators(node.args);
}

function operands(ev: Evaluator, n: Node, ctx: unknown): [unknown, unknown] {
  const [left, right] = n.args as Node[];
  return [ev.run(left!, ctx), ev.run(right!, ctx)];
}

type Primitive = string | number | bigint | boolean;

/** A list literal's elements when all are constants of primitive types (bytes excepted), else undefined. */
function constantList(node: Node | undefined): Primitive[] | undefined {
  if (node?.op !== 'list' || !Array.isArray(node.args)) return undefined;
  const out: Primitive[] = [];
  for (const el of node.args as Node[]) {
    const v = constant(el);
    if (v === undefined) return undefined;
    out.push(v);
  }
  return out;
}

function constant(el: Node): Primitive | undefined {
  if (el.op === '-_' && (el.args as Node)?.op === 'value') {
    const v = (el.args as Node).args;
    return typeof v === 'bigint' || typeof v === 'number' ? -v : undefined;
  }
  if (el.op !== 'value') return undefined;
  const v = el.args;
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') return v;
  return unsigned(v);
}

/** An unsigned int constant (the library's UnsignedInt) as a bigint tagged unsigned; other objects undefined. */
function unsigned(v: unknown): bigint | undefined {
  if (typeof v !== 'object' || v === null || v instanceof Uint8Array || v.constructor?.name !== 'UnsignedInt') return undefined;
  return (v as { value: bigint }).value;
}

/** evalSetMembership: the value's presence among the constants (lossless numeric matches), false for an error. */
function setMembership(ev: Evaluator, n: Node, ctx: unknown, set: Primitive[]): boolean {
  if (set.length === 0) return false;
  let v: unknown;
  try {
    v = ev.run((n.args as Node[])[0]!, ctx);
  } catch {
    return false;
  }
  const num = typeof v === 'bigint' || typeof v === 'number' ? v : unsigned(v);
  return set.some((e) => {
    if (num === undefined || typeof e === 'string' || typeof e === 'boolean') return e === v;
    if (typeof num === typeof e) return num === e;
    // An int or uint constant adds its double; a double constant adds its int and uint where lossless.
    if (typeof e === 'bigint') return num === Number(e);
    return Number.isInteger(e) && Math.abs(e) < 2 ** 63 && BigInt(e) === num;
  });
}
