/**
 * The cell of a CustomResourceDefinition's `additionalPrinterColumns` entry for one object, as
 * apiextensions-apiserver's tableconvertor computes it: the column's JSONPath evaluated on the
 * object (the first result); `string` columns print it as kubectl's JSONPath printer does, other
 * types take it as cellForJSONValue does (`integer`, `number`, `boolean`, and `date` as the
 * human-readable age at `now`); no result, or a value of another type, is null. The JSONPath
 * subset: `.field`, `[n]`, `['key']` / `["key"]`; filters and wildcards give no result. Pure.
 */
import { goFormatValue } from './go-value-format';

type Obj = Record<string, any>;

export interface PrinterColumnSpec {
  type: string;
  jsonPath: string;
}

/** `now` (ms since the epoch) and the age formatter (duration.HumanDuration) for date columns. */
export function printerCell(col: PrinterColumnSpec, obj: Obj, now: number, humanDuration: (ms: number) => string): unknown {
  const value = evaluate(col.jsonPath, obj);
  if (value === undefined || value === null) return null;
  switch (col.type) {
    case 'string':
      return typeof value === 'string' ? value : goFormatValue(value);
    case 'integer':
      return typeof value === 'number' ? Math.trunc(value) : null;
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'date': {
      if (typeof value !== 'string') return null;
      const at = Date.parse(value);
      return Number.isNaN(at) ? '<invalid>' : humanDuration(now - at);
    }
    default:
      return null;
  }
}

/** The JSONPath's value in `obj`, or undefined. */
export function evaluate(path: string, obj: unknown): unknown {
  const steps = parse(path.trim().replace(/^\{(.*)\}$/, '$1').replace(/^\$/, ''));
  if (!steps) return undefined;
  let at: unknown = obj;
  for (const step of steps) {
    if (at === null || typeof at !== 'object') return undefined;
    if (typeof step === 'number') {
      if (!Array.isArray(at)) return undefined;
      at = at[step < 0 ? at.length + step : step];
    } else {
      if (Array.isArray(at)) return undefined;
      at = (at as Obj)[step];
    }
  }
  return at;
}

function parse(path: string): Array<string | number> | undefined {
  const steps: Array<string | number> = [];
  const re = /\.([^.[\]]+)|\[(-?\d+)\]|\['([^']*)'\]|\["([^"]*)"\]/y;
  let i = 0;
  while (i < path.length) {
    re.lastIndex = i;
    const m = re.exec(path);
    if (!m) return undefined;
    if (m[2] !== undefined) steps.push(Number(m[2]));
    else steps.push(m[1] ?? m[3] ?? m[4]!);
    i = re.lastIndex;
  }
  return steps;
}
