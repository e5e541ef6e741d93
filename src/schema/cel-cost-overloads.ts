/**
 * Which of cel-go's overloads a CEL call resolves to, as far as the cost estimate (./cel-cost)
 * tells them apart, from the checked types of the CEL library's tree: `+` of strings, bytes or
 * lists, comparisons of strings or bytes, `in` of a list, an index of a list or a map, the string
 * functions with cost rules; a `dyn` operand matches several (the estimate takes the widest).
 * Pure.
 */
import type { Overload } from './cel-cost-functions';
import { OBJECT_TYPE_PREFIX } from './cel-types';

type Node = { op: string; args: any; checkedType?: { name?: string } };

const typeOf = (n: Node): string | undefined => n.checkedType?.name;

export type Kind = 'list' | 'map' | 'object' | 'param' | 'dyn' | 'string' | 'bytes' | 'other';

/** The kind of a checked type, as cel-go's kindOf tells them apart here. */
export function typeKind(t: string | undefined): Kind {
  if (t === undefined || t === 'dyn' || t.startsWith('dyn<')) return 'dyn';
  if (t.startsWith('list<')) return 'list';
  if (t.startsWith('map<')) return 'map';
  if (t === 'string' || t === 'bytes') return t;
  if (t.startsWith(OBJECT_TYPE_PREFIX) || t === 'kubernetes.URL') return 'object';
  if (/^[A-Z]$/.test(t)) return 'param';
  return 'other';
}

/** The overloads cel-go's checker resolves a call to, as far as cost rules tell them apart (a `dyn` operand matches several). */
export function overloads(fn: string, target: Node | undefined, args: Node[]): Overload[] {
  const kinds = args.map((a) => typeKind(typeOf(a)));
  const all = (k: Kind) => kinds.every((x) => x === k || x === 'dyn');
  switch (fn) {
    case '&&':
      return ['logical_and'];
    case '||':
      return ['logical_or'];
    case '?:':
      return ['conditional'];
    case '==':
      return ['equals'];
    case '!=':
      return ['not_equals'];
    case '<': case '<=': case '>': case '>=': {
      const out: Overload[] = [];
      if (all('string')) out.push('compare_string');
      if (all('bytes')) out.push('compare_bytes');
      if (kinds.some((k) => k !== 'string' && k !== 'bytes')) out.push('other');
      return out;
    }
    case '+': {
      const out: Overload[] = [];
      if (all('string')) out.push('add_string');
      if (all('bytes')) out.push('add_bytes');
      if (all('list')) out.push('add_list');
      if (kinds.every((k) => k !== 'string' && k !== 'bytes' && k !== 'list')) out.push('other');
      return out.length ? out : ['other'];
    }
    case 'in':
      return kinds[1] === 'list' ? ['in_list'] : kinds[1] === 'dyn' ? ['in_list', 'other'] : ['other'];
    case '[]':
      return kinds[0] === 'list' ? ['index_list'] : kinds[0] === 'map' ? ['index_map'] : kinds[0] === 'dyn' ? ['index_list', 'index_map'] : ['other'];
    case 'contains':
      return target ? ['contains_string'] : ['other'];
    case 'startsWith':
      return target ? ['starts_with_string'] : ['other'];
    case 'endsWith':
      return target ? ['ends_with_string'] : ['other'];
    case 'matches':
      return target ? ['matches_string'] : ['other'];
    case 'bytes':
      return !target && kinds[0] === 'string' ? ['string_to_bytes'] : !target && kinds[0] === 'dyn' ? ['string_to_bytes', 'other'] : ['other'];
    case 'string':
      return !target && kinds[0] === 'bytes' ? ['bytes_to_string'] : !target && kinds[0] === 'dyn' ? ['bytes_to_string', 'other'] : ['other'];
    default:
      return ['other'];
  }
}
