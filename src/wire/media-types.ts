/**
 * Media types as Kubernetes clients and the apiserver spell them: Content-Type values and Accept
 * lists with parameters (`application/json;as=Table;g=meta.k8s.io;v=v1`, `…protobuf;stream=watch`).
 */

export const JSON_TYPE = 'application/json';
export const YAML_TYPE = 'application/yaml';
export const PROTOBUF_TYPE = 'application/vnd.kubernetes.protobuf';
export const PROTOBUF_WATCH_TYPE = 'application/vnd.kubernetes.protobuf;stream=watch';

export interface MediaType {
  /** Lowercased; '*' for a wildcard; '' when the value is empty. */
  type: string;
  /** Lowercased; '' when absent. */
  subtype: string;
  /** Parameter names lowercased, values kept as sent (quotes removed). Excludes q in Accept ranges. */
  params: Record<string, string>;
}

export interface MediaRange extends MediaType {
  /** Quality 0..1 (1 when absent or unparsable). */
  q: number;
}

/** Splits on `sep` outside double quotes. */
function splitOutsideQuotes(s: string, sep: string): string[] {
  const parts: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '"') quoted = !quoted;
    else if (c === '\\' && quoted) i++;
    else if (c === sep && !quoted) {
      parts.push(s.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(s.slice(start));
  return parts;
}

function unquote(v: string): string {
  if (v.length >= 2 && v.startsWith('"') && v.endsWith('"')) return v.slice(1, -1).replace(/\\(.)/g, '$1');
  return v;
}

export function parseMediaType(s: string | undefined | null): MediaType {
  const [essence = '', ...rawParams] = splitOutsideQuotes(s ?? '', ';');
  const slash = essence.indexOf('/');
  const type = (slash < 0 ? essence : essence.slice(0, slash)).trim().toLowerCase();
  const subtype = (slash < 0 ? '' : essence.slice(slash + 1)).trim().toLowerCase();
  const params: Record<string, string> = {};
  for (const p of rawParams) {
    const eq = p.indexOf('=');
    const name = (eq < 0 ? p : p.slice(0, eq)).trim().toLowerCase();
    if (!name) continue;
    params[name] = eq < 0 ? '' : unquote(p.slice(eq + 1).trim());
  }
  return { type, subtype, params };
}

/** The ranges of an Accept header, highest q first; equal q keep the header's order. Empty entries are dropped. */
export function parseAccept(header: string | string[] | undefined | null): MediaRange[] {
  const joined = Array.isArray(header) ? header.join(',') : header ?? '';
  const ranges: MediaRange[] = [];
  for (const part of splitOutsideQuotes(joined, ',')) {
    if (!part.trim()) continue;
    const mt = parseMediaType(part);
    if (!mt.type) continue;
    let q = 1;
    if ('q' in mt.params) {
      const parsed = Number(mt.params.q);
      if (mt.params.q.trim() !== '' && Number.isFinite(parsed)) q = Math.min(1, Math.max(0, parsed));
      delete mt.params.q;
    }
    ranges.push({ ...mt, q });
  }
  // Array.prototype.sort is stable (ES2019).
  return ranges.sort((a, b) => b.q - a.q);
}

/** Whether `range` (possibly `*\/*` or `application/*`) covers the media type `type/subtype`, ignoring parameters. */
export function rangeCovers(range: MediaType, mediaType: MediaType): boolean {
  if (range.type !== '*' && range.type !== mediaType.type) return false;
  return range.subtype === '*' || range.subtype === mediaType.subtype;
}

/** `type/subtype;k=v;…` (parameters in insertion order). */
export function formatMediaType(mt: MediaType): string {
  const params = Object.entries(mt.params).map(([k, v]) => `;${k}=${v}`);
  return `${mt.type}/${mt.subtype}${params.join('')}`;
}

function asMediaType(contentType: string | MediaType | undefined | null): MediaType {
  return typeof contentType === 'object' && contentType !== null ? contentType : parseMediaType(contentType);
}

export function isProtobuf(contentType: string | MediaType | undefined | null): boolean {
  const mt = asMediaType(contentType);
  return mt.type === 'application' && mt.subtype === 'vnd.kubernetes.protobuf';
}

/** application/json, and structured-syntax `+json` types (merge-patch+json, json-patch+json, …). */
export function isJson(contentType: string | MediaType | undefined | null): boolean {
  const mt = asMediaType(contentType);
  return mt.type === 'application' && (mt.subtype === 'json' || mt.subtype.endsWith('+json'));
}

export function isYaml(contentType: string | MediaType | undefined | null): boolean {
  const mt = asMediaType(contentType);
  return mt.type === 'application' && (mt.subtype === 'yaml' || mt.subtype.endsWith('+yaml'));
}

/** `;stream=watch`: the apiserver labels protobuf watch streams so (JSON watch streams are plain application/json). */
export function isWatchStream(contentType: string | MediaType | undefined | null): boolean {
  return asMediaType(contentType).params.stream === 'watch';
}
