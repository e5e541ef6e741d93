/**
 * A rule's type check against its schema node's types (./cel-types) as cel-go v0.12 checks it
 * in kube-apiserver v1.26, and cel-go's layout of compile errors. The CEL library's checker
 * finds the errors; this gives them cel-go's words (`undefined field 'x'`, `found no matching
 * overload for '_==_' applied to '(int, string)'`, `expected type 'string' but found 'int'`) and
 * places (a selection at its dot, an operator at its token), and adds what cel-go refuses and the
 * library allows: comparing numbers of different types (`double >= int`; the apiserver does not
 * enable cross-type numeric comparisons) and a result that is not a bool (`dyn` included).
 * Pure.
 */
import type { Environment } from '@marcbachmann/cel-js' with { 'resolution-mode': 'import' };
import { OBJECT_TYPE_PREFIX } from './cel-types';

type Node = { op?: string; pos?: number; start?: number; end?: number; args?: unknown; checkedType?: { name?: string } };

const OPERATORS: Record<string, string> = {
  '==': '_==_', '!=': '_!=_', '<': '_<_', '<=': '_<=_', '>': '_>_', '>=': '_>=_', '+': '_+_', '-': '_-_', '*': '_*_', '/': '_/_', '%': '_%_', in: '@in',
};
const RELATIONS = new Set(['<', '<=', '>', '>=']);
const NUMBERS = new Set(['int', 'uint', 'double']);

/**
 * The rule's compile error under `typed` (`compilation failed: ERROR: …` or `cel expression must
 * evaluate to a bool`), or undefined when it checks.
 */
export function typeCheckError(rule: string, typed: Environment): string | undefined {
  let program: ReturnType<Environment['parse']>;
  try {
    program = typed.parse(rule);
  } catch {
    return undefined;
  }
  const checked = program.check();
  if (!checked.valid) return `compilation failed: ${celCheckError(rule, checked.error, typed)}`;
  const literal = mixedLiteral(rule, program.ast as Node);
  if (literal) return `compilation failed: ${celCompileError(rule, literal.at, `expected type '${celGoType(literal.expected)}' but found '${celGoType(literal.found)}'`)}`;
  const mixed = mixedNumberComparison(program.ast as Node);
  if (mixed) {
    const [left, right] = (mixed.args as Node[]).map((a) => a.checkedType?.name);
    return `compilation failed: ${celCompileError(rule, operatorPosition(rule, mixed), `found no matching overload for '${OPERATORS[mixed.op!]}' applied to '(${left}, ${right})'`)}`;
  }
  const indexed = indexedObject(program.ast as Node);
  if (indexed) {
    const [object, key] = (indexed.args as Node[]).map((a) => celGoType(a.checkedType?.name ?? 'dyn'));
    const bracket = rule.indexOf('[', (indexed.args as Node[])[0]!.end ?? indexed.pos ?? 0);
    return `compilation failed: ${celCompileError(rule, bracket < 0 ? (indexed.pos ?? 0) : bracket, `found no matching overload for '_[_]' applied to '(${object}, ${key})'`)}`;
  }
  const absent = undefinedPresenceTest(rule, program.ast as Node, typed);
  if (absent) return `compilation failed: ${absent}`;
  if (checked.type !== 'bool') return 'cel expression must evaluate to a bool';
  return undefined;
}

/** `ERROR: <input>:1:12: message` and the source line with a caret under the column (cel-go's Errors.ToDisplayString). */
export function celCompileError(rule: string, pos: number, message: string): string {
  const before = rule.slice(0, pos).split('\n');
  const line = before.length;
  const column = before[before.length - 1]!.length;
  const source = (rule.split('\n')[line - 1] ?? '').replace(/\t/g, ' ');
  return `ERROR: <input>:${line}:${column + 1}: ${message}\n | ${source}\n | ${'.'.repeat(column)}^`;
}

/** A checker's complaint (the library's error in `env`) in cel-go's words, at cel-go's place. */
export function celCheckError(rule: string, err: unknown, env?: Environment): string {
  const e = err as { message?: string; node?: Node } | undefined;
  const message = String(e?.message ?? err).split('\n')[0]!;
  const node = e?.node;
  const pos = node ? celGoLocation(rule, node) : 0;
  const field = /^No such key: (.*)$/.exec(message);
  // cel-go places a selection at its dot; the library at the field's name.
  if (field) return celCompileError(rule, pos, `undefined field '${field[1]}'`);
  const operator = /^no such overload: (\S+) (==|!=|<|<=|>|>=|\+|-|\*|\/|%|in) (\S+)$/.exec(message);
  if (operator && node) {
    return celCompileError(rule, pos, `found no matching overload for '${OPERATORS[operator[2]!]}' applied to '(${celGoType(operator[1]!)}, ${celGoType(operator[3]!)})'`);
  }
  const element = /^(?:List elements must have the same type|Map (?:key|value) uses wrong type), (expected type '.*' but found '.*')$/.exec(message);
  if (element) return celCompileError(rule, pos, celGoType(element[1]!));
  const range = /^Expression of type '(.*)' cannot be range of a comprehension \(must be list, map, or dynamic\)\.?$/.exec(message);
  if (range) return celCompileError(rule, pos, `expression of type '${celGoType(range[1]!)}' cannot be range of a comprehension (must be list, map, or dynamic)`);
  const ternary = /^Ternary branches must have the same type, got '(.*)' and '(.*)'$/.exec(message);
  if (ternary) return celCompileError(rule, pos, `found no matching overload for '_?_:_' applied to '(bool, ${celGoType(ternary[1]!)}, ${celGoType(ternary[2]!)})'`);
  const call = /^found no matching overload for '(?:([^']*)\.)?(\w+)\(([^']*)\)'$/.exec(message);
  if (call) {
    const at = pos;
    if (env && !declaredFunctions(env).has(call[2]!)) return celCompileError(rule, at, `undeclared reference to '${call[2]}' (in container '')`);
    return celCompileError(rule, at, `found no matching overload for '${call[2]}' applied to '${call[1] ? `${celGoType(call[1])}.` : ''}(${celGoType(call[3]!)})'`);
  }
  const unknown = /^Unknown variable: (.*)$/.exec(message);
  if (unknown) return celCompileError(rule, pos, `undeclared reference to '${unknown[1]}' (in container '')`);
  return celCompileError(rule, pos, celGoType(message));
}

/** cel-go's names of types: list(T), map(K, V). */
function celGoType(text: string): string {
  let out = text;
  for (let prev = ''; prev !== out; ) {
    prev = out;
    out = out.replace(/\b(list|map)<([^<>]*)>/g, '$1($2)');
  }
  return out;
}

/** The first result of `visit` over the tree, node before children (pre-order); literals and identifiers have no children. */
function firstInTree<T>(tree: unknown, visit: (n: Node) => T | undefined): T | undefined {
  if (Array.isArray(tree)) {
    for (const n of tree) {
      const found = firstInTree(n, visit);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (typeof tree !== 'object' || tree === null) return undefined;
  const n = tree as Node;
  if (n.op === 'value' || n.op === 'id') return undefined;
  return visit(n) ?? firstInTree(n.args, visit);
}

/** The first comparison (pre-order) of two numbers of different types (int < double), which cel-go v0.12 refuses without CrossTypeNumericComparisons. */
function mixedNumberComparison(node: unknown): Node | undefined {
  return firstInTree(node, (n) => {
    if (n.op === undefined || !RELATIONS.has(n.op) || !Array.isArray(n.args) || n.args.length !== 2) return undefined;
    const [l, r] = (n.args as Node[]).map((a) => a?.checkedType?.name);
    return l !== r && NUMBERS.has(l ?? '') && NUMBERS.has(r ?? '') ? n : undefined;
  });
}

/** The first index (`x['f']`) of an object (cel-go has no index on object types; the library reads the field). */
function indexedObject(node: unknown): Node | undefined {
  return firstInTree(node, (n) => (n.op === '[]' && Array.isArray(n.args) && (n.args[0] as Node | undefined)?.checkedType?.name?.startsWith(OBJECT_TYPE_PREFIX) ? n : undefined));
}

/**
 * The first element of a list or map literal whose type does not join the elements' before it
 * (cel-go's joinTypes with homogeneous aggregate literals: a type joins an equal one, dyn, a type
 * parameter, and null joins objects and well-known types).
 */
function mixedLiteral(rule: string, node: unknown): { at: number; expected: string; found: string } | undefined {
  return firstInTree(node, (n) => {
    const args = Array.isArray(n.args) ? n.args : [];
    const groups = n.op === 'list' ? [args as Node[]] : n.op === 'map' ? [0, 1].map((i) => (args as Node[][]).map((entry) => entry[i]!)) : [];
    for (const elements of groups) {
      let joined: string | undefined;
      for (const e of elements) {
        const t = e?.checkedType?.name;
        if (t === undefined) continue;
        if (joined === undefined || joinable(joined, t)) joined = joined === undefined ? t : mostGeneral(joined, t);
        else return { at: celGoLocation(rule, e), expected: joined, found: t };
      }
    }
    return undefined;
  });
}

/** Whether values of types `a` and `b` may share a literal (cel-go isAssignable either way). */
function joinable(a: string, b: string): boolean {
  if (a === b || a === 'dyn' || b === 'dyn' || /^[A-Z]$/.test(a) || /^[A-Z]$/.test(b)) return true;
  const nullable = (t: string) => t.startsWith(OBJECT_TYPE_PREFIX) || t.startsWith('google.protobuf.');
  if ((a === 'null' && nullable(b)) || (b === 'null' && nullable(a))) return true;
  const [ka, pa] = typeParams(a);
  const [kb, pb] = typeParams(b);
  return ka !== undefined && ka === kb && pa.length === pb.length && pa.every((p, i) => joinable(p, pb[i]!));
}

/** The joined type: dyn over all, a type over null, dyn parameters over others, known parameters over free ones (`list<T>` of `[]`). */
function mostGeneral(a: string, b: string): string {
  if (a === 'dyn' || b === 'dyn') return 'dyn';
  if (a === 'null' || b === 'null') return a === 'null' ? b : a;
  if (/\bdyn\b/.test(a) || /\bdyn\b/.test(b)) return /\bdyn\b/.test(a) ? a : b;
  return /<[A-Z]>|[<, ][A-Z][,>]/.test(a) ? b : a;
}

/** `list<int>` → ['list', ['int']]; `map<string, list<int>>` → ['map', ['string', 'list<int>']]. */
function typeParams(t: string): [string | undefined, string[]] {
  const m = /^(list|map)<(.*)>$/.exec(t);
  return m ? [m[1], topLevelTypes(m[2]!)] : [undefined, []];
}

/** `string, map<string, int>` → its types (commas inside `<…>` kept). */
export function topLevelTypes(list: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = '';
  for (const c of list) {
    if (c === ',' && depth === 0) {
      out.push(current.trim());
      current = '';
      continue;
    }
    if (c === '<') depth++;
    if (c === '>') depth--;
    current += c;
  }
  if (current.trim() !== '') out.push(current.trim());
  return out;
}

/** Where cel-go locates an expression: a selection at its dot, a call at its parenthesis, an operator at its token, else its start. */
function celGoLocation(rule: string, node: Node): number {
  const args = Array.isArray(node.args) ? node.args : [];
  switch (node.op) {
    case '.':
    case '.?':
      return (node.pos ?? 1) - 1;
    case 'call':
    case 'rcall':
      return callParenthesis(rule, node);
    case '[]':
    case '?:': {
      const at = rule.indexOf(node.op === '[]' ? '[' : '?', (args[0] as Node | undefined)?.end ?? node.pos ?? 0);
      return at < 0 ? (node.pos ?? 0) : at;
    }
    default:
      return node.op !== undefined && node.op in OPERATORS ? operatorPosition(rule, node) : (node.start ?? node.pos ?? 0);
  }
}

/** Where a binary operator's token is: before its right operand (past spaces and opening parentheses). */
function operatorPosition(rule: string, node: Node): number {
  const right = Array.isArray(node.args) ? (node.args[1] as Node | undefined) : undefined;
  const op = node.op ?? '';
  if (!right || !(op in OPERATORS)) return node.pos ?? 0;
  let end = right.start ?? right.pos ?? 0;
  while (end > 0 && /[\s(]/.test(rule[end - 1]!)) end--;
  return rule.slice(end - op.length, end) === op ? end - op.length : (node.pos ?? 0);
}

/**
 * `has(x.f)` where x's type has no field f: cel-go's checker refuses it (`undefined field 'f'`,
 * at the macro's parenthesis); the library's does not look. Only operands that check on their
 * own (not a comprehension's variable) are looked at.
 */
function undefinedPresenceTest(rule: string, node: unknown, typed: Environment): string | undefined {
  return firstInTree(node, (n) => {
    const args = Array.isArray(n.args) ? n.args : [];
    const select = n.op === 'call' && args[0] === 'has' && Array.isArray(args[1]) ? (args[1][0] as Node | undefined) : undefined;
    if (select?.op !== '.' || !Array.isArray(select.args) || typeof select.args[1] !== 'string') return undefined;
    const operand = select.args[0] as Node;
    if (typeof operand.start !== 'number' || typeof operand.end !== 'number') return undefined;
    const checked = typed.check(`${rule.slice(operand.start, operand.end)}.${select.args[1]}`);
    const message = String((checked.error as { message?: string } | undefined)?.message ?? '');
    if (checked.valid || !message.startsWith('No such key: ')) return undefined;
    const paren = rule.indexOf('(', n.pos ?? 0);
    return celCompileError(rule, paren < 0 ? (n.pos ?? 0) : paren, `undefined field '${select.args[1]}'`);
  });
}

const declared = new WeakMap<Environment, Set<string>>();

/** The names of the functions `env` has, of any overload. */
function declaredFunctions(env: Environment): Set<string> {
  let names = declared.get(env);
  if (!names) declared.set(env, (names = new Set(env.getDefinitions().functions.map((f) => f.name))));
  return names;
}

/** Where cel-go places a call: at its opening parenthesis (after the receiver and the name of a member call). */
function callParenthesis(rule: string, node: Node): number {
  const args = Array.isArray(node.args) ? node.args : [];
  const from = node.op === 'rcall' ? ((args[1] as Node | undefined)?.end ?? node.pos ?? 0) : (node.pos ?? 0);
  const paren = rule.indexOf('(', from);
  return paren < 0 ? (node.pos ?? 0) : paren;
}
