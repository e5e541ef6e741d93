/**
 * Repeated mapping keys of a YAML (or JSON, which is YAML) text, as go-yaml's strict unmarshal
 * reports them (`line 7: key "k" already set in map`, one per repetition, in text order), which
 * sigs.k8s.io/yaml's YAMLToJSONStrict wraps. Pure.
 */
import YAML, { isMap, isScalar, LineCounter } from 'yaml';
import { goJsonSyntaxError } from './go-json';
import { scanJsonFields } from './json-field-scan';

/** go-yaml's line for each repeated key; empty when there is none or the text does not parse. */
export function yamlDuplicateKeys(body: Buffer): string[] {
  const text = body.toString('utf8');
  if (goJsonSyntaxError(body) === undefined) return jsonDuplicateKeys(text);
  const lineCounter = new LineCounter();
  const doc = YAML.parseDocument(text, { version: '1.1', uniqueKeys: false, lineCounter });
  if (doc.errors.length > 0) return [];
  const found: Array<{ offset: number; line: string }> = [];
  YAML.visit(doc, {
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
