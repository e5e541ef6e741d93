/**
 * Path elements as FieldsV1 writes them: `f:NAME` (a field or map key), `k:{"key":value,…}` (an
 * element of a list keyed by its list-map keys, keys sorted), `v:VALUE` (an element of a set),
 * `i:N` (a position). Ordered and printed as structured-merge-diff's fieldpath.PathElement. Pure.
 */

type Obj = Record<string, any>;

export function fieldElement(name: string): string {
  return `f:${name}`;
}

/** `k:` of an element keyed by `keys` (values as given; names sorted). */
export function keyElement(fields: ReadonlyArray<readonly [string, unknown]>): string {
  const sorted = [...fields].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `k:{${sorted.map(([n, v]) => `${JSON.stringify(n)}:${JSON.stringify(v)}`).join(',')}}`;
}

export function valueElement(value: unknown): string {
  return `v:${JSON.stringify(value)}`;
}

export function indexElement(i: number): string {
  return `i:${i}`;
}

const KIND_ORDER: Record<string, number> = { f: 0, k: 1, v: 2, i: 3 };

/** fieldpath.PathElement.Compare: fields, then keys, values, indexes; each by its value. */
export function comparePathElements(a: string, b: string): number {
  if (a.charCodeAt(0) === 102 && b.charCodeAt(0) === 102) return compareStrings(a, b);
  const ka = KIND_ORDER[a[0]!] ?? 4;
  const kb = KIND_ORDER[b[0]!] ?? 4;
  if (ka !== kb) return ka - kb;
  switch (a[0]) {
    case 'f':
      return compareStrings(a.slice(2), b.slice(2));
    case 'k':
      return compareFieldLists(keyFields(a), keyFields(b));
    case 'v':
      return compareValues(parse(a.slice(2)), parse(b.slice(2)));
    case 'i':
      return Number(a.slice(2)) - Number(b.slice(2));
    default:
      return compareStrings(a, b);
  }
}

/** fieldpath.PathElement.String: `.name`, `[k=v,…]`, `[=v]`, `[N]`. */
export function pathElementString(key: string): string {
  const rest = key.slice(2);
  switch (key[0]) {
    case 'f':
      return `.${rest}`;
    case 'k': {
      const fields = parse(rest) as Obj;
      return `[${Object.keys(fields).map((n) => `${n}=${valueString(fields[n])}`).join(',')}]`;
    }
    case 'v':
      return `[=${valueString(parse(rest))}]`;
    case 'i':
      return `[${rest}]`;
    default:
      return key;
  }
}

/** value.ToString: strings quoted, lists and maps spelled out. */
function valueString(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(valueString).join(', ')}]`;
  if (typeof v === 'object') return `{${Object.keys(v).sort().map((k) => `${k}=${valueString((v as Obj)[k])}`).join(', ')}}`;
  return String(v);
}

const parsed = new Map<string, unknown>();

/** A key's JSON, parsed once (keys repeat across requests: the same objects' list items). */
function parse(text: string): unknown {
  let v = parsed.get(text);
  if (v !== undefined || parsed.has(text)) return v;
  try {
    v = JSON.parse(text);
  } catch {
    v = text;
  }
  if (parsed.size > 10_000) parsed.clear();
  parsed.set(text, v);
  return v;
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

type KeyFields = ReadonlyArray<readonly [string, unknown]>;

const keyFieldsOf = new Map<string, KeyFields>();

/** The fields of a `k:` element, names sorted (parsed once per element text). */
function keyFields(element: string): KeyFields {
  let fields = keyFieldsOf.get(element);
  if (fields) return fields;
  const obj = parse(element.slice(2));
  const named = (obj === null || obj === undefined ? {} : Object(obj)) as Obj;
  fields = Object.keys(named).sort().map((n) => [n, named[n]] as const);
  if (keyFieldsOf.size > 10_000) keyFieldsOf.clear();
  keyFieldsOf.set(element, fields);
  return fields;
}

function compareFieldLists(a: KeyFields, b: KeyFields): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const c = compareStrings(a[i]![0], b[i]![0]) || compareValues(a[i]![1], b[i]![1]);
    if (c !== 0) return c;
  }
  return a.length - b.length;
}

/** value.Compare: by type (null, bool, number, string, list, map), then by value. */
function compareValues(a: unknown, b: unknown): number {
  const ta = typeRank(a);
  const tb = typeRank(b);
  if (ta !== tb) return ta - tb;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean') return Number(a) - Number(b);
  if (typeof a === 'string') return compareStrings(a, b as string);
  return compareStrings(JSON.stringify(a), JSON.stringify(b));
}

function typeRank(v: unknown): number {
  if (v === null || v === undefined) return 0;
  if (typeof v === 'boolean') return 1;
  if (typeof v === 'number') return 2;
  if (typeof v === 'string') return 3;
  return Array.isArray(v) ? 4 : 5;
}
