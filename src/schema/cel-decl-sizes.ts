/**
 * The sizes kube-apiserver v1.26 gives a CRD schema node's CEL type for the estimated cost of its
 * rules (apiextensions model.SchemaDeclType, apiserver pkg/cel types.go and limits.go): how many
 * elements a value may hold (`maxItems`, `maxProperties`, a string's `maxLength` × 4 bytes, else
 * what fits in a 3 MiB request) and the fewest bytes it serializes to. The node's `maxCardinality`
 * is how many times a value of its type fits in a request (used under lists and maps without a
 * bound). Fields are keyed by their CEL names, as rules select them. Pure.
 */
import { escapeCelName } from './cel-value';

type Obj = Record<string, any>;

/** A declared type's sizes: `maxElements` (a scalar's is 0), `minSize`, and those of its fields, elements, keys. */
export interface DeclSize {
  maxElements: bigint;
  minSize: bigint;
  fields?: Map<string, DeclSize>;
  elem?: DeclSize;
  key?: DeclSize;
}

/** apiserver DefaultMaxRequestSizeBytes (3 MiB). */
const MAX_REQUEST = 3n * 1024n * 1024n;
/** A string without a bound: the whole request but its quotes. */
const UNBOUNDED_STRING = MAX_REQUEST - 2n;
/** A map's keys are apiservercel.StringType: no maxElements. */
const KEY: DeclSize = { maxElements: 0n, minSize: 2n };

const int64 = (v: unknown): bigint | undefined => (typeof v === 'number' && Number.isFinite(v) ? BigInt(Math.trunc(v)) : undefined);
const zeroIfNegative = (v: bigint) => (v < 0n ? 0n : v);
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The sizes of `schema`'s CEL type, or undefined where it has none; `resource`: a CR root or an embedded resource. */
export function schemaDeclSize(schema: Obj, resource: boolean): DeclSize | undefined {
  if (schema['x-kubernetes-int-or-string'] === true) return { maxElements: UNBOUNDED_STRING, minSize: 1n };
  const s = resource ? withTypeAndObjectMeta(schema) : schema;
  switch (s.type) {
    case 'array': {
      if (!isObj(s.items)) return undefined;
      const elem = schemaDeclSize(s.items, s.items['x-kubernetes-embedded-resource'] === true);
      if (!elem) return undefined;
      const maxItems = int64(s.maxItems);
      return { maxElements: maxItems !== undefined ? zeroIfNegative(maxItems) : UNBOUNDED_STRING / (elem.minSize + 1n), minSize: 2n, elem };
    }
    case 'object': {
      if (isObj(s.additionalProperties)) {
        const elem = schemaDeclSize(s.additionalProperties, s.additionalProperties['x-kubernetes-embedded-resource'] === true);
        if (!elem) return undefined;
        const maxProperties = int64(s.maxProperties);
        return { maxElements: maxProperties !== undefined ? zeroIfNegative(maxProperties) : UNBOUNDED_STRING / (elem.minSize + 6n), minSize: 2n, elem, key: KEY };
      }
      const required = new Set(Array.isArray(s.required) ? s.required : []);
      const fields = new Map<string, DeclSize>();
      // `{}`, plus each required property without a default: its name, its value, quotes, colon and comma.
      let minSize = 2n;
      for (const [name, prop] of Object.entries(isObj(s.properties) ? s.properties : {})) {
        if (!isObj(prop)) continue;
        const type = schemaDeclSize(prop, prop['x-kubernetes-embedded-resource'] === true);
        if (!type) continue;
        const field = escapeCelName(name);
        if (field !== undefined) fields.set(field, type);
        if (required.has(name) && (prop.default === undefined || prop.default === null)) minSize += BigInt(Buffer.byteLength(name)) + type.minSize + 4n;
      }
      return { maxElements: 0n, minSize, fields };
    }
    case 'string': {
      const maxLength = int64(s.maxLength);
      switch (s.format) {
        case 'byte':
          return { maxElements: maxLength !== undefined ? zeroIfNegative(maxLength) : UNBOUNDED_STRING, minSize: 2n };
        case 'duration':
          return { maxElements: 32n, minSize: 3n };
        case 'date':
          return { maxElements: 12n, minSize: 12n };
        case 'date-time':
          return { maxElements: 32n, minSize: 21n };
        default:
          // maxLength counts code points; a code point is up to 4 bytes (int64 arithmetic, as Go's).
          return { maxElements: maxLength !== undefined ? BigInt.asIntN(64, zeroIfNegative(maxLength) * 4n) : UNBOUNDED_STRING, minSize: 2n };
      }
    }
    case 'boolean':
      return { maxElements: 0n, minSize: 4n };
    case 'number':
    case 'integer':
      return { maxElements: 0n, minSize: 1n };
    default:
      return undefined;
  }
}

/** model.MaxCardinality: how many values of at least `minSize` bytes (and a comma) fit in a request. */
export function maxCardinality(minSize: bigint): bigint {
  return MAX_REQUEST / (minSize + 1n);
}

/** model.WithTypeAndObjectMeta: a resource's `kind`, `apiVersion` and `metadata` (`name`, `generateName`) as strings without bounds. */
function withTypeAndObjectMeta(s: Obj): Obj {
  const p = isObj(s.properties) ? s.properties : undefined;
  const meta = p?.metadata;
  if (p && p.kind?.type === 'string' && p.apiVersion?.type === 'string' && meta?.type === 'object' && isObj(meta.properties) && meta.properties.name?.type === 'string' && meta.properties.generateName?.type === 'string') return s;
  const str = { type: 'string' };
  return { ...s, properties: { ...(p ?? {}), kind: str, apiVersion: str, metadata: { type: 'object', properties: { name: str, generateName: str } } } };
}
