/**
 * Byte-level edits of recorded JSON objects, keeping every other byte as the apiserver wrote
 * it: find `metadata.resourceVersion` and replace its value, and drop or add the leading
 * `"kind":…,"apiVersion":…,` that typed list items do not carry.
 */
import { objectMembers, skipWs } from '../wire/json-spans';

/** Returns `json` with metadata.resourceVersion set to `rv` (added after uid, or first, when absent). */
export function setJsonResourceVersion(json: Buffer, rv: string): Buffer {
  const top = objectMembers(json, 0, json.length);
  const meta = top.members.get('metadata');
  const rvText = Buffer.from(JSON.stringify(rv), 'utf8');
  if (!meta) {
    const open = skipWs(json, 0, json.length) + 1;
    const insert = Buffer.from(`"metadata":{"resourceVersion":${JSON.stringify(rv)}}${top.members.size > 0 ? ',' : ''}`, 'utf8');
    return Buffer.concat([json.subarray(0, open), insert, json.subarray(open)]);
  }
  const inner = objectMembers(json, meta.start, meta.end);
  const current = inner.members.get('resourceVersion');
  if (current) return Buffer.concat([json.subarray(0, current.start), rvText, json.subarray(current.end)]);
  // Insert it where Go's field order puts it: after uid, else after namespace/name, else first.
  const after = inner.members.get('uid') ?? inner.members.get('namespace') ?? inner.members.get('name');
  const field = Buffer.from(`"resourceVersion":${rvText.toString('utf8')}`, 'utf8');
  if (after) return Buffer.concat([json.subarray(0, after.end), Buffer.from(','), field, json.subarray(after.end)]);
  const open = skipWs(json, meta.start, meta.end) + 1;
  const sep = inner.members.size > 0 ? Buffer.from(',') : Buffer.alloc(0);
  return Buffer.concat([json.subarray(0, open), field, sep, json.subarray(open)]);
}

/**
 * The leading `{"kind":"K","apiVersion":"V",` of a typed object, which list items omit.
 * Objects of one resource all share it.
 */
export class TypePrefix {
  readonly text: string;

  constructor(kind: string, apiVersion: string) {
    this.text = `{"kind":${JSON.stringify(kind)},"apiVersion":${JSON.stringify(apiVersion)},`;
  }

  /** Whether `json` starts with this prefix (typed style) — then its list item form drops it. */
  matches(json: string): boolean {
    return json.length > this.text.length && json.startsWith(this.text);
  }
}
