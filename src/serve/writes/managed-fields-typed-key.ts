/**
 * The managedFields cache's key for a resource with a schema (src/serve/writes/managed-fields-cache.ts
 * says what it holds): the tracked parts before and after, written as the field manager's Compare
 * walks them. Pure.
 */
import { trackedPart } from '../../k8s/managed-fields';
import { zeroObject, type SchemaNode } from '../../schema';
import { isEmptyList } from '../../schema/compare-values';
import { isPlainObject, sameJsonContent } from '../../wire/json-object';
import { elementOf, indexItems, memberType, shapeOf } from '../../schema/typed-node';
import type { ServedResource } from '../served-resources';
import type { UpdateOperation } from './managed-fields-update';
import { shape, type KeyParts } from './shape-key-parts';

type Obj = Record<string, any>;

/** With a schema: the key's parts for what Compare finds between the tracked parts (see the cache's comment). */
export function typedKeyParts(resource: ServedResource, node: SchemaNode, op: UpdateOperation): KeyParts {
  // As managedFieldsOfUpdate: a custom resource's zero object has no spec or status.
  const before = op.before ?? (resource.custom ? { metadata: {} } : zeroObject(resource.codec.type.kind));
  const out: KeyParts = { text: '' };
  typedPair(out, trackedPart(before, op.scope), trackedPart(op.after, op.scope), node);
  return out;
}

/**
 * Writes the pair (`l` undefined: added) as Compare walks it under `node`. Values Compare would
 * treat oddly (undefined members or items) and list items without a path element (Compare
 * throws) make the write uncached.
 */
function typedPair(out: KeyParts, l: unknown, r: unknown, node: SchemaNode | undefined): void {
  if (out.uncached) return;
  if (l === r) {
    out.text += '=';
    return;
  }
  const ls = l === undefined ? undefined : shapeOf(node, l);
  const rs = shapeOf(node, r);
  if (ls !== undefined && ls !== rs) {
    // Compared as leaves, and values of different shapes differ: modified.
    out.text += '!';
    return;
  }
  if (rs === 'map') {
    const lm = isPlainObject(l) ? l : NO_MEMBERS;
    const rm = isPlainObject(r) ? r : NO_MEMBERS;
    const lk = Object.keys(lm);
    const rk = Object.keys(rm);
    if (lk.length > 0 || rk.length > 0) {
      out.text += '{' + kindOf(l) + kindOf(r);
      let kept = 0;
      for (const k of rk) {
        const v = rm[k];
        if (v === undefined) return void (out.uncached = true);
        out.text += String(k.length) + ':' + k;
        if (Object.hasOwn(lm, k)) {
          kept++;
          typedPair(out, lm[k], v, memberType(node, k));
        } else typedPair(out, undefined, v, memberType(node, k));
      }
      out.text += '|';
      // Keys `l` has beyond those `r` kept: removed.
      if (kept < lk.length) {
        for (const k of lk) {
          const v = lm[k];
          if (v === undefined) return void (out.uncached = true);
          if (!Object.hasOwn(rm, k)) out.text += String(k.length) + ':' + k + shape(v);
        }
      }
      out.text += '}';
      return;
    }
  }
  if (rs === 'list' && !(isEmptyList(l) && isEmptyList(r))) {
    const li = listItems(out, node, l);
    const ri = listItems(out, node, r);
    if (out.uncached) return;
    const element = elementOf(node);
    out.text += '[' + kindOf(l) + kindOf(r);
    for (const pe of sortedKeys(ri)) {
      out.text += String(pe.length) + ':' + pe;
      typedPair(out, li.get(pe), ri.get(pe), element);
    }
    out.text += '|';
    for (const pe of sortedKeys(li)) if (!ri.has(pe)) out.text += String(pe.length) + ':' + pe + shape(li.get(pe));
    out.text += ']';
    return;
  }
  // A leaf: added, equal, or modified.
  out.text += l === undefined ? '+' : sameJsonContent(l, r) ? '=' : '~';
}

const NO_MEMBERS: Obj = Object.freeze({});

/** A list's items by path element, first occurrence kept (Compare's indexItems); marks the key uncached when an item has none. */
function listItems(out: KeyParts, node: SchemaNode | undefined, list: unknown): Map<string, unknown> {
  if (!Array.isArray(list)) return new Map();
  try {
    if (list.includes(undefined)) throw new Error('undefined item');
    return indexItems(node, list);
  } catch {
    out.uncached = true;
    return new Map();
  }
}

function sortedKeys(m: Map<string, unknown>): string[] {
  return m.size > 1 ? [...m.keys()].sort() : [...m.keys()];
}

/** What Compare tells apart about a value besides its shape: absent, null, list, map, other. */
function kindOf(v: unknown): string {
  return v === undefined ? 'u' : v === null ? 'z' : Array.isArray(v) ? 'a' : typeof v === 'object' ? 'm' : 's';
}
