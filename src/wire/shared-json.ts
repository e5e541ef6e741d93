/**
 * Go's JSON text of an object that shares frozen subtrees with objects serialised before (the
 * result of a copy-on-write patch: new along what the patch changed, the stored object's own
 * subtrees elsewhere): the new parts are written member by member, each frozen subtree's text is
 * remembered (it never changes) and reused. The text is what JSON.stringify writes, with
 * HTML-sensitive characters escaped as Go's encoding/json escapes them.
 */
import { isFrozenTree } from './frozen-tree';
import { isPlainObject } from './json-object';

type Obj = Record<string, unknown>;

const texts = new WeakMap<object, string>();

const HTML_UNSAFE_ALL = /[<>&\u2028\u2029]/g;

/** Whether `text` holds a character Go's encoder escapes (`<` `>` `&` U+2028 U+2029): five indexOf scans, far cheaper than a character-class test. */
export function hasHtmlUnsafe(text: string): boolean {
  return text.indexOf('<') >= 0 || text.indexOf('>') >= 0 || text.indexOf('&') >= 0 || text.indexOf('\u2028') >= 0 || text.indexOf('\u2029') >= 0;
}

/** `text` with <, >, &, U+2028 and U+2029 escaped as \u00XX. */
export function escapeHtml(text: string): string {
  return hasHtmlUnsafe(text) ? text.replace(HTML_UNSAFE_ALL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) : text;
}

/** Whether `value` is an object with a frozen subtree among its members or theirs (the text is then built by sharedJson). */
export function sharesFrozenSubtrees(value: unknown): boolean {
  if (!isPlainObject(value)) return false;
  if (isFrozenTree(value)) return true;
  for (const k of Object.keys(value)) {
    const v = value[k];
    if (!isPlainObject(v)) continue;
    if (isFrozenTree(v)) return true;
    for (const mk of Object.keys(v)) {
      const m = v[mk];
      if (m !== null && typeof m === 'object' && isFrozenTree(m)) return true;
    }
  }
  return false;
}

/** goJson of an object or array (see the file's header). */
export function sharedJson(value: object): string {
  if (isFrozenTree(value)) {
    let text = texts.get(value);
    if (text === undefined) texts.set(value, (text = escapeHtml(JSON.stringify(value))));
    return text;
  }
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return escapeHtml(JSON.stringify(value));
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ',';
      const v: unknown = value[i];
      out += written(v) ? valueJson(v, '') : 'null';
    }
    return `${out}]`;
  }
  let out = '{';
  let first = true;
  for (const k of Object.keys(value)) {
    const v = (value as Obj)[k];
    if (!written(v)) continue;
    out += `${first ? '' : ','}${escapeHtml(JSON.stringify(k))}:${valueJson(v, k)}`;
    first = false;
  }
  return `${out}}`;
}

/**
 * A member's text. A FieldsV1 value (an object there) is written in one native call and its text
 * remembered: nothing changes a FieldsV1 value once built (stored objects and the managedFields
 * cache share them), and an entry the write leaves alone keeps the same one.
 */
function valueJson(v: unknown, key: string): string {
  if (v === null || typeof v !== 'object') return escapeHtml(JSON.stringify(v));
  if (key !== 'fieldsV1') return sharedJson(v);
  let text = texts.get(v);
  if (text === undefined) texts.set(v, (text = escapeHtml(JSON.stringify(v))));
  return text;
}

/** Whether JSON.stringify writes the value as a member (in an array it writes null for the others). */
function written(v: unknown): boolean {
  const t = typeof v;
  return t !== 'undefined' && t !== 'function' && t !== 'symbol';
}

