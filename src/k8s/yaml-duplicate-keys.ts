/**
 * Repeated mapping keys of a YAML (or JSON, which is YAML) text, as go-yaml's strict unmarshal
 * reports them (`line 7: key "k" already set in map`, one per repetition, in text order), which
 * sigs.k8s.io/yaml's YAMLToJSONStrict wraps. Pure.
 */
import { yaml } from '../wire/yaml';
import { scanJsonFields } from './json-field-scan';

/**
 * go-yaml's line for each repeated key; empty when there is none or the text does not parse.
 * `parsed`: JSON.parse of the text when the caller has it already.
 */
export function yamlDuplicateKeys(body: Buffer, parsed?: unknown): string[] {
  const text = body.toString('utf8');
  const json = parsed !== undefined ? parsed : parseJson(text);
  if (json !== NOT_JSON) return keyCount(json) === textKeyCount(text) ? [] : jsonDuplicateKeys(text);
  const { isMap, isScalar, LineCounter, parseDocument, visit } = yaml();
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { version: '1.1', uniqueKeys: false, lineCounter });
  if (doc.errors.length > 0) return [];
  const found: Array<{ offset: number; line: string }> = [];
  visit(doc, {
    Map(_, map) {
      const seen = new Set<string>();
      for (const pair of map.items) {
        const key = isScalar(pair.key) ? pair.key.value : pair.key;
        const id = JSON.stringify(key);
        if (!seen.has(id)) {
          seen.add(id);
          continue;
        }
        const offset = isScalar(pair.key) || isMap(pair.key) ? (pair.key.range?.[0] ?? 0) : 0;
        found.push({ offset, line: `line ${lineCounter.linePos(offset).line}: key ${goValue(key)} already set in map` });
      }
    },
  });
  return found.sort((a, b) => a.offset - b.offset).map((f) => f.line);
}

/** The same lines for a JSON text, found by the (cheaper) JSON scan. */
function jsonDuplicateKeys(text: string): string[] {
  return scanJsonFields(text).duplicates.map((d) => `line ${lineOf(text, d.offset)}: key ${goValue(d.key)} already set in map`);
}

const NOT_JSON = Symbol('not JSON');

/**
 * The value of a JSON text, or NOT_JSON. JSON.parse accepts exactly the texts Go's scanner does
 * (both follow RFC 8259; invalid UTF-8, which Go passes through, is U+FFFD in `text`).
 */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return NOT_JSON;
  }
}

/** Whether a JSON text repeats a key in one of its objects; `parsed`: its JSON.parse value. */
export function jsonRepeatsKeys(text: string, parsed: unknown): boolean {
  return keyCount(parsed) !== textKeyCount(text);
}

/** The keys of every object in a parsed value: fewer than the text has when a key repeats. */
function keyCount(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  let n = 0;
  if (Array.isArray(value)) {
    for (const v of value) n += keyCount(v);
    return n;
  }
  for (const k of Object.keys(value)) n += 1 + keyCount((value as Record<string, unknown>)[k]);
  return n;
}

/** The keys written in a valid JSON text: string literals followed by a colon. */
function textKeyCount(text: string): number {
  let n = 0;
  let i = text.indexOf('"');
  while (i !== -1) {
    let end = i;
    for (;;) {
      end = text.indexOf('"', end + 1);
      let slashes = 0;
      while (text.charCodeAt(end - 1 - slashes) === 0x5c) slashes++;
      if (slashes % 2 === 0) break;
    }
    let next = end + 1;
    for (let c = text.charCodeAt(next); c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09; c = text.charCodeAt(++next));
    if (text.charCodeAt(next) === 0x3a) n++;
    i = text.indexOf('"', next);
  }
  return n;
}

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** A key as go-yaml's `%#v` prints it: quoted strings, bare numbers and booleans. */
function goValue(key: unknown): string {
  return typeof key === 'string' ? JSON.stringify(key) : String(key);
}

/** The error sigs.k8s.io/yaml's YAMLToJSONStrict returns for these lines. */
export function yamlStrictError(lines: string[]): string {
  return `error converting YAML to JSON: yaml: unmarshal errors:\n  ${lines.join('\n  ')}`;
}
