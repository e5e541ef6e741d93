/**
 * Functions the CEL library has but words or computes differently from cel-go v0.12: `matches`
 * with RE2's syntax (./re2-regexp), and the strings extension's `indexOf`, `lastIndexOf`,
 * `substring` (code-point indexes, `index out of range: N`, `invalid substring range. start: S,
 * end: E`), `split` (an empty separator splits between code points), `lowerAscii` and `upperAscii` (ASCII letters only), `join` (which fails on a list taken
 * from the object). The library's own functions
 * cannot be replaced, so these are registered under other names (`GO_FUNCTIONS`) and a rule's
 * member calls are pointed at them when it is compiled (./cel-environment). Pure.
 */
import type { Environment } from '@marcbachmann/cel-js' with { 'resolution-mode': 'import' };
import { listIndexOf } from './cel-library';
import { isObjectList } from './cel-value';
import { re2RegExp } from '../k8s/re2-regexp';

/** A member function's name in rules → the name of cel-go's version here. */
export const GO_FUNCTIONS: Readonly<Record<string, string>> = {
  matches: 'matches__go', join: 'join__go', indexOf: 'indexOf__go', lastIndexOf: 'lastIndexOf__go', substring: 'substring__go', split: 'split__go', lowerAscii: 'lowerAscii__go', upperAscii: 'upperAscii__go',
};

/** Registers cel-go's versions on `env` (returns it); a list's indexOf/lastIndexOf is the Kubernetes lists library's. */
export function withGoStringFunctions(env: Environment): Environment {
  env.registerFunction('string.matches__go(string): bool', (s: string, pattern: string) => {
    const re = re2RegExp(pattern);
    if (typeof re === 'string') throw new Error(re);
    return re.test(s);
  });
  env.registerFunction('list<string>.join__go(): string', (l: List<string>) => join(l, ''));
  env.registerFunction('list<string>.join__go(string): string', (l: List<string>, sep: string) => join(l, sep));
  env.registerFunction('string.indexOf__go(string): int', (s: string, sub: string) => BigInt(indexOf(s, sub, 0)));
  env.registerFunction('string.indexOf__go(string, int): int', (s: string, sub: string, off: bigint) => BigInt(indexOf(s, sub, Number(off))));
  env.registerFunction('string.lastIndexOf__go(string): int', (s: string, sub: string) => BigInt(sub === '' ? [...s].length : lastIndexOf(s, sub, [...s].length - 1)));
  env.registerFunction('string.lastIndexOf__go(string, int): int', (s: string, sub: string, off: bigint) => BigInt(lastIndexOf(s, sub, Number(off))));
  env.registerFunction('list<A>.indexOf__go(A): int', (l: unknown[] | Set<unknown>, v: unknown) => BigInt(listIndexOf([...l], v, false)));
  env.registerFunction('list<A>.lastIndexOf__go(A): int', (l: unknown[] | Set<unknown>, v: unknown) => BigInt(listIndexOf([...l], v, true)));
  env.registerFunction('string.substring__go(int): string', (s: string, start: bigint) => substring(s, Number(start), undefined));
  env.registerFunction('string.substring__go(int, int): string', (s: string, start: bigint, end: bigint) => substring(s, Number(start), Number(end)));
  env.registerFunction('string.split__go(string): list<string>', (s: string, sep: string) => split(s, sep, -1));
  env.registerFunction('string.split__go(string, int): list<string>', (s: string, sep: string, n: bigint) => split(s, sep, Number(n)));
  env.registerFunction('string.lowerAscii__go(): string', (s: string) => s.replace(/[A-Z]+/g, (m) => m.toLowerCase()));
  env.registerFunction('string.upperAscii__go(): string', (s: string) => s.replace(/[a-z]+/g, (m) => m.toUpperCase()));
  return env;
}

type List<T> = T[] | Set<T>;

/** strings.Join of a list of strings; a list from the object fails as v1.26's join does (its elements are not converted to []string, and the type assertion panics). */
function join(l: List<string>, sep: string): string {
  if (isObjectList(l)) throw new Error('internal error: interface conversion: interface {} is []interface {}, not []string');
  return [...l].join(sep);
}

function indexOf(s: string, sub: string, off: number): number {
  if (sub === '') return off;
  const runes = [...s];
  const subs = [...sub];
  if (off < 0 || off >= runes.length) throw new Error(`index out of range: ${off}`);
  for (let i = off; i < runes.length - (subs.length - 1); i++) if (subs.every((r, j) => runes[i + j] === r)) return i;
  return -1;
}

function lastIndexOf(s: string, sub: string, offset: number): number {
  if (sub === '') return offset;
  const runes = [...s];
  const subs = [...sub];
  if (offset < 0 || offset >= runes.length) throw new Error(`index out of range: ${offset}`);
  for (let i = Math.min(offset, runes.length - subs.length); i >= 0; i--) if (subs.every((r, j) => runes[i + j] === r)) return i;
  return -1;
}

/** strings.SplitN: an empty separator splits between code points; n > 0 parts at most (the last the rest), 0 none, < 0 all. */
function split(s: string, sep: string, n: number): string[] {
  if (n === 0) return [];
  if (sep === '') {
    const points = [...s];
    if (n < 0 || n >= points.length) return points;
    return [...points.slice(0, n - 1), points.slice(n - 1).join('')];
  }
  const parts = s.split(sep);
  if (n < 0 || parts.length <= n) return parts;
  return [...parts.slice(0, n - 1), parts.slice(n - 1).join(sep)];
}

function substring(s: string, start: number, end: number | undefined): string {
  const runes = [...s];
  if (end !== undefined && start > end) throw new Error(`invalid substring range. start: ${start}, end: ${end}`);
  if (start < 0 || start > runes.length) throw new Error(`index out of range: ${start}`);
  if (end !== undefined && (end < 0 || end > runes.length)) throw new Error(`index out of range: ${end}`);
  return runes.slice(start, end).join('');
}
