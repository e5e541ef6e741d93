/**
 * Label selectors as apimachinery's labels.Parse reads them: equality (`=`, `==`, `!=`),
 * set-based (`in`, `notin`), existence (`key`, `!key`) and the numeric `>` / `<`.
 * A malformed selector is a 400 with the parser's message. Pure.
 */
import { badRequest } from './status';

export type LabelOperator = '=' | '==' | '!=' | 'in' | 'notin' | 'exists' | '!' | '>' | '<';

export interface LabelRequirement {
  key: string;
  operator: LabelOperator;
  values: string[];
}

export interface LabelSelector {
  readonly requirements: readonly LabelRequirement[];
  /** True when the selector selects everything (no requirements). */
  readonly empty: boolean;
  matches(labels: Readonly<Record<string, string>> | undefined): boolean;
}

const EVERYTHING: LabelSelector = { requirements: [], empty: true, matches: () => true };

export function parseLabelSelector(text: string): LabelSelector {
  if (text.trim() === '') return EVERYTHING;
  const requirements = new Parser(text).parse();
  return {
    requirements,
    empty: requirements.length === 0,
    matches: (labels) => requirements.every((r) => matchesRequirement(r, labels ?? {})),
  };
}

function matchesRequirement(r: LabelRequirement, labels: Readonly<Record<string, string>>): boolean {
  const has = Object.prototype.hasOwnProperty.call(labels, r.key);
  const value = has ? labels[r.key]! : undefined;
  switch (r.operator) {
    case '=':
    case '==':
    case 'in':
      return has && r.values.includes(value!);
    case '!=':
    case 'notin':
      return !has || !r.values.includes(value!);
    case 'exists':
      return has;
    case '!':
      return !has;
    case '>':
    case '<': {
      if (!has || !/^-?\d+$/.test(value!)) return false;
      const n = Number(value);
      const bound = Number(r.values[0]);
      return r.operator === '>' ? n > bound : n < bound;
    }
  }
}

type TokenKind = 'identifier' | 'in' | 'notin' | '!' | '!=' | '=' | '==' | '>' | '<' | '(' | ')' | ',' | 'end';

interface Token {
  kind: TokenKind;
  text: string;
}

const SPECIAL = new Set(['!', '=', '>', '<', '(', ')', ',']);

function isWhitespace(c: string): boolean {
  return c === ' ' || c === '\t' || c === '\r' || c === '\n';
}

function lex(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (isWhitespace(c)) {
      i++;
      continue;
    }
    if (SPECIAL.has(c)) {
      const two = text.slice(i, i + 2);
      if (two === '!=' || two === '==') {
        tokens.push({ kind: two, text: two });
        i += 2;
      } else {
        tokens.push({ kind: c as TokenKind, text: c });
        i++;
      }
      continue;
    }
    let end = i;
    while (end < text.length && !isWhitespace(text[end]!) && !SPECIAL.has(text[end]!)) end++;
    const word = text.slice(i, end);
    tokens.push({ kind: word === 'in' ? 'in' : word === 'notin' ? 'notin' : 'identifier', text: word });
    i = end;
  }
  tokens.push({ kind: 'end', text: '' });
  return tokens;
}

class Parser {
  private readonly tokens: Token[];
  private pos = 0;

  constructor(text: string) {
    this.tokens = lex(text);
  }

  parse(): LabelRequirement[] {
    const out: LabelRequirement[] = [];
    for (;;) {
      const t = this.peek();
      if (t.kind === 'end') return out;
      if (t.kind !== 'identifier' && t.kind !== '!') throw fail(`found '${t.text}', expected: !, identifier, or 'end of string'`);
      out.push(this.requirement());
      const next = this.next();
      if (next.kind === 'end') return out;
      if (next.kind !== ',') throw fail(`found '${next.text}', expected: ',' or 'end of string'`);
      const after = this.peek();
      if (after.kind !== 'identifier' && after.kind !== '!') throw fail(`found '${after.text}', expected: identifier after ','`);
    }
  }

  private requirement(): LabelRequirement {
    let negated = false;
    if (this.peek().kind === '!') {
      this.next();
      negated = true;
    }
    const keyTok = this.next();
    if (keyTok.kind !== 'identifier') throw fail(`found '${keyTok.text}', expected: identifier`);
    const key = keyTok.text;
    checkKey(key);
    const op = this.peek();
    if (op.kind === ',' || op.kind === 'end') return { key, operator: negated ? '!' : 'exists', values: [] };
    if (negated) throw fail(`exists operator cannot be negated, unexpected operator: '${op.text}'`);
    this.next();
    switch (op.kind) {
      case '=':
      case '==':
      case '!=':
      case '>':
      case '<': {
        const v = this.peek();
        let value = '';
        if (v.kind === 'identifier') value = this.next().text;
        else if (v.kind !== ',' && v.kind !== 'end') throw fail(`found '${v.text}', expected: identifier`);
        if (op.kind === '>' || op.kind === '<') {
          if (!/^-?\d+$/.test(value)) throw fail(`for 'Gt', 'Lt' operators, the value must be an integer`);
        } else checkValue(key, value);
        return { key, operator: op.kind, values: [value] };
      }
      case 'in':
      case 'notin':
        return { key, operator: op.kind, values: this.valueSet(key) };
      default:
        throw fail(`found '${op.text}', expected: in, notin, =, ==, !=, gt, lt`);
    }
  }

  private valueSet(key: string): string[] {
    const open = this.next();
    if (open.kind !== '(') throw fail(`found '${open.text}', expected:'('`);
    const values: string[] = [];
    for (;;) {
      const t = this.next();
      if (t.kind === ')') {
        if (values.length === 0) values.push('');
        break;
      }
      if (t.kind === 'identifier') {
        checkValue(key, t.text);
        values.push(t.text);
        const sep = this.next();
        if (sep.kind === ')') break;
        if (sep.kind !== ',') throw fail(`found '${sep.text}', expected: ',' or ')'`);
        continue;
      }
      if (t.kind === ',') {
        values.push('');
        continue;
      }
      throw fail(`found '${t.text}', expected: ',', ')' or identifier`);
    }
    return [...new Set(values)].sort();
  }

  private peek(): Token {
    return this.tokens[this.pos]!;
  }

  private next(): Token {
    return this.tokens[this.pos++] ?? { kind: 'end', text: '' };
  }
}

const NAME_PART = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

function checkKey(key: string): void {
  const slash = key.lastIndexOf('/');
  const name = slash < 0 ? key : key.slice(slash + 1);
  const prefix = slash < 0 ? '' : key.slice(0, slash);
  const ok = name.length > 0 && name.length <= 63 && NAME_PART.test(name) && (slash < 0 || (prefix.length > 0 && prefix.length <= 253 && DNS_SUBDOMAIN.test(prefix)));
  if (!ok) {
    throw badRequest(
      `unable to parse requirement: key: Invalid value: ${JSON.stringify(key)}: name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
    );
  }
}

function checkValue(key: string, value: string): void {
  if (value.length <= 63 && LABEL_VALUE.test(value)) return;
  throw badRequest(
    `unable to parse requirement: values[0][${key}]: Invalid value: ${JSON.stringify(value)}: a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
  );
}

function fail(message: string) {
  return badRequest(`unable to parse requirement: ${message}`);
}
