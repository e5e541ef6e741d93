/**
 * The CEL environment of CRD validation rules: `self` and `oldSelf` (dynamically typed: the
 * schema's types are given to the values, not declared to the checker), the Kubernetes library
 * (./cel-library), and a rule's compilation — parsed and checked once, with its errors in
 * cel-go's layout (`ERROR: <input>:LINE:COLUMN: message`, then the line and a caret), and
 * whether it is a transition rule (it names `oldSelf`); a constant regular expression RE2 refuses
 * is a compile error, and calls of functions cel-go computes its own way are pointed at cel-go's
 * versions (./cel-go-strings, ./cel-go-conversions), its `in`, relations, `/` and `%` evaluated as
 * cel-go evaluates them (./cel-go-operators). Errors a rule raises when evaluated are given cel-go's texts by
 * `celRuntimeError`. Pure.
 */
import type * as Cel from '@marcbachmann/cel-js' with { 'resolution-mode': 'import' };
import { GO_CONVERSIONS, withGoConversions } from './cel-go-conversions';
import { useGoOperators } from './cel-go-operators';
import { GO_FUNCTIONS, withGoStringFunctions } from './cel-go-strings';
import { withKubernetesLibrary } from './cel-library';
import { celLibrary } from './cel-module';
import { celCheckError, topLevelTypes, typeCheckError } from './cel-type-check';
import type { CelScalars } from './cel-value';
import { re2RegExp } from '../k8s/re2-regexp';

type Obj = Record<string, any>;

/** A rule compiled for evaluation, or the reason it does not compile (`compilation failed: ERROR: …`). */
export type CompiledRule =
  | { program: (vars: Obj) => unknown; transition: boolean; error?: undefined }
  | { error: string; program?: undefined; transition?: undefined };

type Environment = Cel.Environment;

let shared: { env: Environment; scalars: CelScalars } | undefined;
function environment(): { env: Environment; scalars: CelScalars } {
  if (shared) return shared;
  const { Environment } = celLibrary();
  const env = withGoConversions(withGoStringFunctions(withKubernetesLibrary(new Environment({ homogeneousAggregateLiterals: false }).registerVariable('self', 'dyn').registerVariable('oldSelf', 'dyn'))));
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
 * has the schema node's type (./cel-types): the rule is type-checked against it as cel-go checks
 * it (./cel-type-check); it is evaluated against values in the environment where `self` is dyn.
 */
export function compileCelRule(rule: string, typed?: Environment): CompiledRule {
  const { env } = environment();
  try {
    const checked = env.check(rule);
    // A check error is given in the node's types where they are known (`(string, string)`, not `(dyn, string)`).
    if (!checked.valid) return { error: (typed && typeCheckError(rule, typed)) || `compilation failed: ${compileError(rule, checked.error)}` };
    const typeError = typed ? typeCheckError(rule, typed) : checked.type !== 'bool' && checked.type !== 'dyn' ? 'cel expression must evaluate to a bool' : undefined;
    if (typeError) return { error: typeError };
    const program = env.parse(rule);
    const badPattern = constantPatternError(program.ast);
    if (badPattern) return { error: `program instantiation failed: ${badPattern}` };
    const badConstant = constantConversionError(rule, program.ast);
    if (badConstant) return { error: `program instantiation failed: ${badConstant}` };
    useGoFunctions(program.ast);
    useGoOperators(program.ast);
    return { program: (vars) => program(vars), transition: namesOldSelf(program.ast) };
  } catch (err) {
    return { error: `compilation failed: ${compileError(rule, err)}` };
  }
}

/** A parse or check error of the untyped environment in cel-go's layout. */
function compileError(rule: string, err: unknown): string {
  return celCheckError(rule, err, environment().env);
}

const REGEX_FUNCTIONS = new Set(['matches', 'find', 'findAll']);

type Node = { op?: string; args?: unknown };

/** Calls of `name(…)` in the expression, on a receiver (`member`) or not; `args` without the receiver. */
function* calls(ast: unknown): Generator<{ node: Node; name: string; args: Node[]; member: boolean }> {
  if (Array.isArray(ast)) {
    for (const n of ast) yield* calls(n);
    return;
  }
  if (typeof ast !== 'object' || ast === null) return;
  const node = ast as Node;
  if (node.op === 'value' || node.op === 'id') return;
  if (node.op === 'rcall' && Array.isArray(node.args) && typeof node.args[0] === 'string') {
    yield { node, name: node.args[0], args: Array.isArray(node.args[2]) ? node.args[2] : [], member: true };
  }
  if (node.op === 'call' && Array.isArray(node.args) && typeof node.args[0] === 'string') {
    yield { node, name: node.args[0], args: Array.isArray(node.args[1]) ? node.args[1] : [], member: false };
  }
  yield* calls(node.args);
}

/** Go's parse error of the first constant pattern of matches/find/findAll that RE2 refuses (cel-go compiles them with the program). */
function constantPatternError(ast: unknown): string | undefined {
  for (const { name, args, member } of calls(ast)) {
    const pattern = member ? args[0] : name === 'matches' ? args[1] : undefined;
    if (!REGEX_FUNCTIONS.has(name) || pattern?.op !== 'value' || typeof pattern.args !== 'string') continue;
    const re = re2RegExp(pattern.args);
    if (typeof re === 'string') return re;
  }
  return undefined;
}

const CONVERSIONS = new Set(['int', 'uint', 'double', 'bool', 'bytes', 'string', 'duration', 'timestamp']);

/** The error of the first conversion of a literal that fails (`int('x')`): cel-go evaluates those when it builds the program. */
function constantConversionError(rule: string, ast: unknown): string | undefined {
  for (const { node, name, args, member } of calls(ast)) {
    if (member || args.length !== 1 || !CONVERSIONS.has(name)) continue;
    const arg = args[0]!;
    if (arg.op !== 'value' && !(arg.op === '-_' && (arg.args as Node)?.op === 'value')) continue;
    const { start, end } = node as { start?: number; end?: number };
    if (start === undefined || end === undefined) continue;
    try {
      // A timestamp keeps milliseconds; the library's parser refuses some longer fractions Go reads.
      const text = rule.slice(start, end);
      const call = environment().env.parse(name === 'timestamp' ? text.replace(/(\.\d{3})\d+/, '$1') : text);
      useGoFunctions(call.ast);
      call({});
    } catch (err) {
      return celRuntimeError(err);
    }
  }
  return undefined;
}

/** Points the parsed expression's calls of functions cel-go has its own way at cel-go's versions (./cel-go-strings; the program evaluates the tree it was parsed into). */
function useGoFunctions(ast: unknown): void {
  for (const { node, name, args, member } of [...calls(ast)]) {
    const go = member ? GO_FUNCTIONS[name] : args.length === 1 ? GO_CONVERSIONS[name] : undefined;
    if (go) (node.args as unknown[])[0] = go;
  }
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
  if (first.startsWith('found no matching overload')) return noSuchOverload(first);
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
      return /unsigned/i.test(first) ? 'unsigned integer overflow' : 'integer overflow';
    case 'invalid_regular_expression':
      return first;
    case 'modulo_by_zero':
      return 'modulus by zero';
    case 'int_conversion_error':
      return "type conversion error from 'string' to 'int'";
    case 'invalid_duration':
      return "type conversion error from 'string' to 'google.protobuf.Duration'";
    case 'invalid_timestamp':
      return "type conversion error from 'string' to 'google.protobuf.Timestamp'";
    default:
      return first.replace(/^No such key: /, 'no such key: ');
  }
}

/** The standard library's functions, which cel-go answers a wrongly typed argument of with `no such overload: NAME`; extensions' overloads name the arguments' types. */
const STANDARD_FUNCTIONS = new Set([
  'contains', 'endsWith', 'startsWith', 'matches', 'size',
  'getFullYear', 'getMonth', 'getDate', 'getDayOfMonth', 'getDayOfWeek', 'getDayOfYear', 'getHours', 'getMinutes', 'getSeconds', 'getMilliseconds',
]);

/** cel-go's text for a call no overload of which takes its arguments (`found no matching overload for 'int.charAt(int)'` → `no such overload: charAt(int, int)`). */
function noSuchOverload(message: string): string {
  const m = /^found no matching overload for '(?:([^'(]*?)\.)?(\w+)\(([^']*)\)'$/.exec(message);
  if (!m) return 'no such overload';
  const name = m[2]!.replace(/__go$/, '');
  if (STANDARD_FUNCTIONS.has(name)) return `no such overload: ${name}`;
  const args = [...(m[1] ? [m[1]] : []), ...topLevelTypes(m[3]!)].map(goTypeName);
  return `no such overload: ${name}(${args.join(', ')})`;
}


/** A value's type name as cel-go's ref.Type.TypeName() gives it. */
function goTypeName(type: string): string {
  const dyn = /^dyn<(.*)>$/.exec(type);
  const t = dyn ? dyn[1]! : type;
  if (t.startsWith('list')) return 'list';
  if (t.startsWith('map')) return 'map';
  return t === 'null' ? 'null_type' : t;
}
