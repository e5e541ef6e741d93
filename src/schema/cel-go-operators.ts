/**
 * Operators cel-go v0.12 evaluates otherwise than the CEL library, as kube-apiserver v1.26 builds
 * its programs (cel.OptOptimize): `x in [constants]` is a set membership test — false for an
 * empty list without evaluating `x`, false when `x` is an error (a missing field), numbers
 * matching across int/uint/double where the conversion is lossless; `<`, `<=`, `>`, `>=` with a
 * NaN fail with `NaN values cannot be ordered`, and order strings by code point; the lowest int
 * divided by (or modulo) -1 fails with `integer overflow`, as does a duration sum or difference
 * beyond int64 nanoseconds; a timestamp moved outside years 1–9999 fails with `timestamp
 * overflow`; a set or map list from the object plus a list is their union or merge (./cel-value),
 * and equality is the left list's: a literal list compares in order even with a set. Where
 * several operands of an operator, function call, list or map fail, the error is the leftmost's
 * (the receiver's before the arguments'), and `&&`/`||` whose operands both fail give the left
 * one's error. The parsed expression's nodes are given their evaluation here (the
 * library evaluates a node by its own `evaluate`). Pure.
 */

import { compareStrings } from './cel-library';
import { isObjectList, unorderedListSum } from './cel-value';

type Node = {
  op?: string;
  args?: unknown;
  handle?: (l: unknown, r: unknown, ast: Node, ev: Evaluator) => unknown;
  evaluate?: Evaluate;
  readonly meta?: { evaluate?: Evaluate; alternate?: unknown; macro?: unknown };
};
type Evaluator = { run(ast: Node, ctx: unknown): unknown };
type Evaluate = (ev: Evaluator, ast: Node, ctx: unknown) => unknown;

const MIN_INT = -(2n ** 63n);
const RELATIONS = new Set(['<', '<=', '>', '>=']);
const ORDERED: Record<string, (c: number) => boolean> = { '<': (c) => c < 0, '<=': (c) => c <= 0, '>': (c) => c > 0, '>=': (c) => c >= 0 };
const BINARY = new Set(['==', '!=', 'in', '+', '-', '*', '/', '%', '<', '<=', '>', '>=', '[]']);

/** Gives the expression's `in`, relation, `/` and `%` nodes cel-go's evaluation. */
export function useGoOperators(ast: unknown): void {
  if (Array.isArray(ast)) {
    for (const n of ast) useGoOperators(n);
    return;
  }
  if (typeof ast !== 'object' || ast === null) return;
  const node = ast as Node;
  if (node.op === 'value' || node.op === 'id') return;
  if (node.op === '&&' || node.op === '||') node.evaluate = logical(node.op === '||');
  else leftmostError(node);
  if (node.op === 'in') {
    const set = constantList((node.args as Node[])[1]);
    if (set) node.evaluate = (ev, n, ctx) => setMembership(ev, n, ctx, set);
  } else if (RELATIONS.has(node.op!)) {
    node.evaluate = (ev, n, ctx) => {
      const [l, r] = operands(ev, n, ctx);
      if (Number.isNaN(l) || Number.isNaN(r)) throw new Error('NaN values cannot be ordered');
      if (typeof l === 'string' && typeof r === 'string') return ORDERED[n.op!]!(compareStrings(l, r));
      return n.handle!(l, r, n, ev);
    };
  } else if (node.op === '+' || node.op === '-') {
    const minus = node.op === '-';
    node.evaluate = (ev, n, ctx) => {
      const [l, r] = operands(ev, n, ctx);
      timeOverflow(l, r, minus);
      if (!minus) {
        // cel-go adds to an empty list by returning the other list itself (a set or map list stays one).
        if (isEmptyLiteralList(l) && (Array.isArray(r) || r instanceof Set)) return r;
        const sum = unorderedListSum(l, r);
        if (sum !== undefined) return sum;
      }
      return n.handle!(l, r, n, ev);
    };
  } else if (node.op === '==' || node.op === '!=') {
    // The left list decides: a literal (or atomic) list compares in order even with a set or map list.
    node.evaluate = (ev, n, ctx) => {
      const [l, r] = operands(ev, n, ctx);
      return n.handle!(l, Array.isArray(l) && r instanceof Set ? [...r] : r, n, ev);
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

/** cel-go's && (`||` with `or`): the short-circuiting value from either side, else both booleans' result, else the left error before the right. */
function logical(or: boolean): Evaluate {
  return (ev, n, ctx) => {
    const [left, right] = n.args as Node[];
    const l = attempt(ev, left!, ctx);
    if (l.value === or) return or;
    const r = attempt(ev, right!, ctx);
    if (r.value === or) return or;
    if (typeof l.value === 'boolean' && typeof r.value === 'boolean') return !or;
    if ('error' in l) throw l.error;
    if ('error' in r) throw r.error;
    throw new Error('no such overload');
  };
}

function attempt(ev: Evaluator, node: Node, ctx: unknown): { value: unknown } | { value?: undefined; error: unknown } {
  try {
    return { value: ev.run(node, ctx) };
  } catch (error) {
    return { error };
  }
}

/** A failing node's error becomes that of its leftmost failing operand, as cel-go evaluates operands in order and returns the first error. */
function leftmostError(node: Node): void {
  const meta = node.meta;
  if (!meta?.evaluate || meta.alternate || meta.macro) return;
  const operands = evaluatedOperands(node);
  if (operands.length < 2) return;
  const evaluate = meta.evaluate;
  node.evaluate = (ev, n, ctx) => {
    try {
      return evaluate(ev, n, ctx);
    } catch (err) {
      for (const operand of operands) {
        const r = attempt(ev, operand, ctx);
        if ('error' in r) throw r.error;
      }
      throw err;
    }
  };
}

function evaluatedOperands(node: Node): Node[] {
  const args = node.args as any;
  if (BINARY.has(node.op!)) return args;
  if (node.op === 'call') return args[1];
  if (node.op === 'rcall') return [args[1], ...args[2]];
  if (node.op === 'list') return args;
  if (node.op === 'map') return (args as Node[][]).flat();
  return [];
}

const MAX_INT = 2n ** 63n - 1n;
const MIN_UNIX_SECONDS = -62135596800n;
const MAX_UNIX_SECONDS = 253402300799n;
const BILLION = 1_000_000_000n;

/** A duration's nanoseconds (the library's Duration: seconds and nanos), else undefined. */
function durationNanos(v: unknown): bigint | undefined {
  if (typeof v !== 'object' || v === null || v.constructor?.name !== 'Duration') return undefined;
  const d = v as { seconds: bigint; nanos: number };
  return BigInt(d.seconds) * BILLION + BigInt(d.nanos);
}

function timestampNanos(v: unknown): bigint | undefined {
  return v instanceof Date ? BigInt(v.getTime()) * 1_000_000n : undefined;
}

/** cel-go's overflow checks of time arithmetic: durations are int64 nanoseconds (`integer overflow`), timestamps years 1 to 9999 (`timestamp overflow`). */
function timeOverflow(l: unknown, r: unknown, minus: boolean): void {
  const [dl, dr, tl, tr] = [durationNanos(l), durationNanos(r), timestampNanos(l), timestampNanos(r)];
  const int64 = (ns: bigint) => {
    if (ns > MAX_INT || ns < MIN_INT) throw new Error('integer overflow');
    return ns;
  };
  if (dl !== undefined && dr !== undefined) int64(minus ? dl - dr : dl + dr);
  else if (tl !== undefined && tr !== undefined && minus) int64(tl - tr);
  else if ((tl !== undefined && dr !== undefined) || (dl !== undefined && tr !== undefined && !minus)) {
    const d = minus ? int64(-dr!) : (dr ?? dl)!;
    const ns = (tl ?? tr)! + d;
    const seconds = ns >= 0n ? ns / BILLION : -((-ns + BILLION - 1n) / BILLION);
    if (seconds < MIN_UNIX_SECONDS || seconds > MAX_UNIX_SECONDS) throw new Error('timestamp overflow');
  }
}

/** An empty list made by the rule (a literal, a macro's result), not one taken from the object. */
function isEmptyLiteralList(v: unknown): boolean {
  return Array.isArray(v) && v.length === 0 && !isObjectList(v);
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
