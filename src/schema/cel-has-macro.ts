/**
 * `has()` of a selection whose operand is any expression, as cel-go's parser takes it:
 * `has(self.matches[0].path)`, `has(self.items.filter(…)[0].name)`. The CEL library's `has()`
 * takes only a chain of selections from a variable (`has(self.a.b)`) and refuses the rest
 * (`has() invalid argument`); for the rest, this checks the operand and, evaluated, tests the
 * presence of the field in the operand's value (an error of the operand, such as a missing key
 * of an intermediate selection, stays an error, as in cel-go). Pure once installed.
 */
import type * as Cel from '@marcbachmann/cel-js' with { 'resolution-mode': 'import' };

type Node = { op?: string; args?: unknown; evaluate?: (ev: Evaluator, ast: Node, ctx: unknown) => unknown };
type Checker = { check(ast: Node, ctx: unknown): unknown; getType(name: string): unknown };
type Evaluator = { run(ast: Node, ctx: unknown): unknown; debugType(v: unknown): { fieldLazy(v: unknown, key: string, ast: Node, ev: Evaluator): unknown } };
type NodePrototype = { check(this: Node, chk: Checker, ast: Node, ctx: unknown): unknown; [INSTALLED]?: true };

const INSTALLED = Symbol('kubetape.hasAnyOperand');

/** Makes the library's parse trees take `has()` of a selection of any operand (once per library). */
export function installHasOfAnyOperand(cel: typeof Cel): void {
  const tree = new cel.Environment().parse('has(a.b)').ast as unknown as object;
  const proto = Object.getPrototypeOf(tree) as NodePrototype;
  if (proto[INSTALLED]) return;
  const check = proto.check;
  proto.check = function (this: Node, chk: Checker, ast: Node, ctx: unknown): unknown {
    const select = selectionOfAnyOperand(this);
    if (!select) return check.call(this, chk, ast, ctx);
    const [operand, field] = select.args as [Node, string];
    chk.check(operand, ctx);
    this.evaluate = (ev, _ast, c) => {
      const value = ev.run(operand, c);
      return ev.debugType(value).fieldLazy(value, field, select, ev) !== undefined;
    };
    return chk.getType('bool');
  };
  proto[INSTALLED] = true;
}

/** The selection of a `has(x.f)` call whose chain of selections does not start at a variable (the library's own `has()` takes those). */
function selectionOfAnyOperand(node: Node): Node | undefined {
  if (node.op !== 'call' || !Array.isArray(node.args) || node.args[0] !== 'has') return undefined;
  const args = node.args[1] as Node[] | undefined;
  const select = Array.isArray(args) && args.length === 1 ? args[0] : undefined;
  if (select?.op !== '.' || !Array.isArray(select.args) || typeof select.args[1] !== 'string') return undefined;
  let root: Node = select;
  while ((root.op === '.' || root.op === '.?') && Array.isArray(root.args)) root = root.args[0] as Node;
  return root.op === 'id' ? undefined : select;
}
