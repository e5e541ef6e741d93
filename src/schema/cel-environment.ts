/**
 * The CEL environment of CRD validation rules: `self` and `oldSelf` (dynamically typed: the
 * schema's types are given to the values, not declared to the checker), the Kubernetes library
 * (./cel-library), and a rule's compilation — parsed and checked once, with its errors in
 * cel-go's layout (`ERROR: <input>:LINE:COLUMN: message`, then the line and a caret), and
 * whether it is a transition rule (it names `oldSelf`). Errors a rule raises when evaluated are
 * given cel-go's texts by `celRuntimeError`. Pure.
 */
import type * as Cel from '@marcbachmann/cel-js' with { 'resolution-mode': 'import' };
import { withKubernetesLibrary } from './cel-library';
import type { CelScalars } from './cel-value';

type Obj = Record<string, any>;

/** A rule compiled for evaluation, or the reason it does not compile (`compilation failed: ERROR: …`). */
export type CompiledRule =
  | { program: (vars: Obj) => unknown; transition: boolean; error?: undefined }
  | { error: string; program?: undefined; transition?: undefined };

type Environment = Cel.Environment;

let shared: { env: Environment; scalars: CelScalars } | undefined;
let cel: typeof Cel | undefined;

/**
 * The CEL library (an ES module only). `require` where the runtime can require an ES module (Node
 * ≥ 20.19, jest's CommonJS runtime when the package is transformed); `loadCelLibrary` loads it
 * ahead with `import()` where only that works (jest run with --experimental-vm-modules).
 */
export function celLibrary(): typeof Cel {
  return (cel ??= require('@marcbachmann/cel-js') as typeof Cel);
}

/**
 * Loads the CEL library ahead of the rules of the CRDs about to be written (serve calls it before
 * a CRD write and `--crds`). A runtime that can load it neither way is left to fail when a rule
 * is compiled, so that a process that never meets a rule does not need it.
 */
export async function loadCelLibrary(): Promise<void> {
  if (cel) return;
  try {
    cel = require('@marcbachmann/cel-js') as typeof Cel;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ERR_REQUIRE_ESM' && code !== 'ERR_REQUIRE_ASYNC_MODULE') return;
    cel = await import('@marcbachmann/cel-js').catch(() => undefined);
  }
}

function environment(): { env: Environment; scalars: CelScalars } {
  if (shared) return shared;
  const { Environment } = celLibrary();
  const env = withKubernetesLibrary(new Environment({ homogeneousAggregateLiterals: false }).registerVariable('self', 'dyn').registerVariable('oldSelf', 'dyn'));
  const scalar = new Environment().registerVariable('text', 'string');
  const parser = (expression: string) => {
    const program = scalar.parse(expression);
    return (text: string) => program({ text });
  };
  shared = { env, scalars: { timestamp: parser('timestamp(text)'), duration: parser('duration(text)') } };
  return shared;
}

/** The parsers of formatted strings the environment's values use (see cel-value). */
export function celScalars(): CelScalars {
  return environment().scalars;
}

/**
 * Compiles one rule (`x-kubernetes-validations[].rule`). `typed`: the environment whose `self`
 * has the schema node's type (./cel-types); of what it finds, only a field the type lacks is an
 * error (`undefined field 'x'`) — the rule is evaluated against values, which is more lenient
 * than cel-go's checker in what else it accepts.
 */
export function compileCelRule(rule: string, typed?: Environment): CompiledRule {
  const { env } = environment();
  try {
    const checked = env.check(rule);
    if (!checked.valid) return { error: `compilation failed: ${compileError(rule, checked.error)}` };
    if (checked.type !== 'bool' && checked.type !== 'dyn') return { error: 'cel expression must evaluate to a bool' };
    const undefinedField = typed ? undefinedFieldError(rule, typed) : undefined;
    if (undefinedField) return { error: `compilation failed: ${undefinedField}` };
    const program = env.parse(rule);
    return { program: (vars) => program(vars), transition: namesOldSelf(program.ast) };
  } catch (err) {
    return { error: `compilation failed: ${compileError(rule, err)}` };
  }
}

/** The typed check's complaint about a field the node's type does not have, in cel-go's words; else undefined. */
function undefinedFieldError(rule: string, typed: Environment): string | undefined {
  let checked: ReturnType<Environment['check']>;
  try {
    checked = typed.check(rule);
  } catch {
    return undefined;
  }
  if (checked.valid) return undefined;
  const e = checked.error as { message?: string; node?: { op?: string; pos?: number } } | undefined;
  const field = /^No such key: (.*)$/.exec(String(e?.message ?? '').split('\n')[0]!);
  if (!field) return undefined;
  // cel-go places a selection at its dot; the library at the field's name.
  const at = e?.node?.op === '.' && typeof e.node.pos === 'number' ? { node: { pos: e.node.pos - 1 } } : e;
  return compileError(rule, { ...at, message: `undefined field '${field[1]}'` });
}

/** `ERROR: <input>:1:12: message` and the source line with a caret under the column. */
function compileError(rule: string, err: unknown): string {
  const e = err as { message?: string; node?: { pos?: number } } | undefined;
  const message = celGoCompileText(String(e?.message ?? err).split('\n')[0]!);
  const pos = typeof e?.node?.pos === 'number' ? e.node.pos : 0;
  const before = rule.slice(0, pos).split('\n');
  const line = before.length;
  const column = before[before.length - 1]!.length;
  const source = rule.split('\n')[line - 1] ?? '';
  return `ERROR: <input>:${line}:${column + 1}: ${message}\n | ${source}\n | ${'.'.repeat(column)}^`;
}

/** The checker's messages cel-go words differently, in cel-go's words. */
function celGoCompileText(message: string): string {
  const unknown = /^Unknown variable: (.*)$/.exec(message);
  if (unknown) return `undeclared reference to '${unknown[1]}' (in container '')`;
  return message;
}

/** Whether the expression refers to `oldSelf` (an identifier, not a string). */
function namesOldSelf(ast: unknown): boolean {
  if (Array.isArray(ast)) return ast.some(namesOldSelf);
  if (typeof ast !== 'object' || ast === null) return false;
  const node = ast as { op?: string; args?: unknown };
  if (node.op === 'id') return node.args === 'oldSelf';
  return namesOldSelf(node.args);
}

/** An evaluation error's text as cel-go words it (`no such key: x`, `division by zero`, …). */
export function celRuntimeError(err: unknown): string {
  const e = err as { code?: string; message?: string };
  const first = String(e?.message ?? err).split('\n')[0]!;
  if (first.startsWith('found no matching overload')) return 'no such overload';
  switch (e?.code) {
    case 'no_such_key':
      return first.replace(/^No such key: /, 'no such key: ');
    case 'no_such_overload':
      return 'no such overload';
    case 'index_out_of_bounds': {
      const m = /index (-?\d+)/.exec(first);
      return `index out of bounds: ${m ? m[1] : ''}`.trim();
    }
    case 'numeric_overflow':
      return 'integer overflow';
    default:
      return first.replace(/^No such key: /, 'no such key: ');
  }
}
