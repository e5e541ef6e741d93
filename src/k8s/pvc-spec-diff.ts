/**
 * The diff ValidatePersistentVolumeClaimUpdate appends to "spec is immutable after creation…",
 * in the shape of go-cmp's `cmp.Diff(old, new)` on a core.PersistentVolumeClaimSpec: changed
 * fields as `-`/`+` lines, unchanged ones folded. go-cmp's output is deliberately unstable
 * (it varies its whitespace), so this follows its layout, not its bytes. Pure.
 */
import { formatQuantity, parseQuantity } from './quantity';

type Obj = Record<string, any>;

/** PersistentVolumeClaimSpec's fields in Go order, with the Go type of each. */
const FIELDS: Array<[string, string, string]> = [
  ['accessModes', 'AccessModes', '[]core.PersistentVolumeAccessMode'],
  ['selector', 'Selector', '*v1.LabelSelector'],
  ['resources', 'Resources', 'core.ResourceRequirements'],
  ['volumeName', 'VolumeName', 'string'],
  ['storageClassName', 'StorageClassName', '*string'],
  ['volumeMode', 'VolumeMode', '*core.PersistentVolumeMode'],
  ['dataSource', 'DataSource', '*core.TypedLocalObjectReference'],
  ['dataSourceRef', 'DataSourceRef', '*core.TypedObjectReference'],
];

/** undefined when the specs are the same; otherwise the diff text. */
export function pvcSpecDiff(old: Obj, next: Obj): string | undefined {
  const lines = ['  core.PersistentVolumeClaimSpec{'];
  let identical = 0;
  let changed = false;
  const flush = () => {
    if (identical > 0) lines.push(`  \t... // ${identical} identical field${identical === 1 ? '' : 's'}`);
    identical = 0;
  };
  for (const [key, name, type] of FIELDS) {
    const a = goValue(old[key], type);
    const b = goValue(next[key], type);
    if (key === 'resources' ? sameResources(old[key], next[key]) : a === b) {
      identical++;
      continue;
    }
    changed = true;
    flush();
    lines.push(`- \t${name}: ${a},`, `+ \t${name}: ${b},`);
  }
  if (!changed) return undefined;
  flush();
  lines.push('  }');
  return lines.join('\n');
}

/** Resources compare as quantities (`1Gi` is `1024Mi`), as apiequality.Semantic does. */
function sameResources(a: unknown, b: unknown): boolean {
  const norm = (r: unknown) => {
    const o = (r && typeof r === 'object' ? r : {}) as Obj;
    const lists = ['limits', 'requests'].map((k) => {
      const m = (o[k] && typeof o[k] === 'object' ? o[k] : {}) as Obj;
      return Object.keys(m).sort().map((name) => `${name}=${canonical(m[name])}`).join(',');
    });
    return lists.join(';');
  };
  return norm(a) === norm(b);
}

function goValue(v: unknown, type: string): string {
  if (type === 'string') return JSON.stringify(typeof v === 'string' ? v : '');
  if (v === undefined || v === null) return type.startsWith('[]') ? 'nil' : type.startsWith('*') ? 'nil' : `${type}{}`;
  if (Array.isArray(v)) return `${type}{${v.map((x) => JSON.stringify(x)).join(', ')}}`;
  if (typeof v === 'string') return `&${JSON.stringify(v)}`;
  if (type === 'core.ResourceRequirements') return `${type}{${goFields(v as Obj)}}`;
  return `&${type.slice(1)}{${goFields(v as Obj)}}`;
}

function goFields(o: Obj): string {
  return Object.keys(o)
    .sort()
    .map((k) => `${k[0]!.toUpperCase()}${k.slice(1)}: ${typeof o[k] === 'object' && o[k] !== null ? `{${goFields(o[k])}}` : JSON.stringify(o[k])}`)
    .join(', ');
}

/** Quantity.String() of a quantity (equal values, equal texts); other values as they are. */
function canonical(value: unknown): unknown {
  const q = parseQuantity(value);
  return q ? formatQuantity(q) : value;
}
