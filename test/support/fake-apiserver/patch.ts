/** JSON merge patch (RFC 7386) and JSON patch (RFC 6902), enough for kubectl patch and client libraries. */
import type { KObject } from './objects';
import { ApiError, statusBody } from './status';

export function mergePatch(target: unknown, patch: unknown): KObject {
  if (!patch || typeof patch !== 'object' || Array.isArray(patch)) return patch as KObject;
  const out: KObject = target && typeof target === 'object' && !Array.isArray(target) ? { ...(target as KObject) } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

const unescape = (s: string) => s.replace(/~1/g, '/').replace(/~0/g, '~');

function invalid(message: string): ApiError {
  return new ApiError(statusBody(422, 'Invalid', message));
}

export function applyJsonPatch(target: KObject, ops: KObject[]): KObject {
  if (!Array.isArray(ops)) throw invalid('json patch must be an array of operations');
  let doc: unknown = structuredClone(target);
  for (const op of ops) {
    const path = String(op.path ?? '').split('/').slice(1).map(unescape);
    if (path.length === 0) {
      if (op.op === 'replace' || op.op === 'add') doc = structuredClone(op.value);
      continue;
    }
    let parent: any = doc;
    for (const seg of path.slice(0, -1)) {
      if (parent === undefined || parent === null) break;
      if (parent[seg] === undefined && op.op === 'add') parent[seg] = {};
      parent = parent[seg];
    }
    const last = path[path.length - 1];
    if (parent === undefined || parent === null || typeof parent !== 'object') throw invalid(`doc is missing path: "${op.path}": missing value`);
    switch (op.op) {
      case 'add':
        if (Array.isArray(parent)) parent.splice(last === '-' ? parent.length : Number(last), 0, op.value);
        else parent[last] = op.value;
        break;
      case 'replace':
        if (!(last in parent)) throw invalid(`doc is missing key: ${op.path}: missing value`);
        parent[last] = op.value;
        break;
      case 'remove':
        if (!(last in parent)) throw invalid(`doc is missing key: ${op.path}: missing value`);
        if (Array.isArray(parent)) parent.splice(Number(last), 1);
        else delete parent[last];
        break;
      case 'test':
        if (JSON.stringify(parent[last]) !== JSON.stringify(op.value)) throw invalid(`testing value ${op.path} failed: test failed`);
        break;
      default:
        throw invalid(`Unexpected kind: ${op.op}`);
    }
  }
  return doc as KObject;
}
