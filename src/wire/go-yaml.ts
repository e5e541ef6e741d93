/**
 * A JSON value as YAML text the way Go's gopkg.in/yaml.v3 `yaml.Marshal` writes a node whose
 * styles were cleared (gnostic's compiler.Marshal, which makes the `yaml` of every `Any` in an
 * OpenAPI v2 protobuf document): block mappings and sequences, the indentation rule of yaml.v3's
 * yaml_emitter_increase_indent with 4 spaces (a collection inside a sequence item is indented 2
 * past the `- `, any other nested collection to the next multiple of 4, sequences in mappings
 * indented too), `{}` and `[]` for empty collections, a trailing newline. Scalars are plain when a
 * YAML 1.1 or 1.2 reader would read the same string back; otherwise double-quoted when the plain
 * text would read as another type (`"true"`, `"123"`, `""`), single-quoted when it is not valid
 * plain text (`'#/x'`). Strings with line breaks are double-quoted (yaml.v3 writes a literal
 * block; a reader gets the same string).
 */
import { stringify as yamlStringify } from 'yaml';

const INDENT = 4;

export function goYaml(value: unknown): string {
  const lines: string[] = [];
  const first = node(value, 0, 'root', lines);
  return first === undefined ? lines.join('\n') + '\n' : first + '\n';
}

type Parent = 'root' | 'mapping' | 'sequence';

/**
 * Appends `value`'s lines to `lines` and returns undefined, or returns its inline text (a scalar
 * or an empty collection). `indent` is the enclosing collection's indentation.
 */
function node(value: unknown, indent: number, parent: Parent, lines: string[]): string | undefined {
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const at = nestedIndent(indent, parent);
    for (const item of value) {
      const start = lines.length;
      const inline = node(item, at, 'sequence', lines);
      if (inline !== undefined) lines.push(`${pad(at)}- ${inline}`);
      // A collection's first line follows the `- ` on the same line.
      else lines[start] = `${pad(at)}- ${lines[start]!.slice(at + 2)}`;
    }
    return undefined;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    if (entries.length === 0) return '{}';
    const at = nestedIndent(indent, parent);
    for (const [k, v] of entries) {
      const key = `${pad(at)}${scalar(k)}:`;
      const start = lines.length;
      lines.push(key);
      const inline = node(v, at, 'mapping', lines);
      if (inline !== undefined) lines[start] = `${key} ${inline}`;
    }
    return undefined;
  }
  return scalar(value);
}

/** yaml_emitter_increase_indent: 0 at the root, +2 inside a sequence item, else the next multiple of 4. */
function nestedIndent(indent: number, parent: Parent): number {
  if (parent === 'root') return 0;
  if (parent === 'sequence') return indent + 2;
  return INDENT * Math.floor((indent + INDENT) / INDENT);
}

function pad(n: number): string {
  return ' '.repeat(n);
}

const scalars = new Map<string, string>();

function scalar(value: unknown): string {
  if (typeof value !== 'string') return value === null || value === undefined ? 'null' : String(value);
  let text = scalars.get(value);
  if (text === undefined) scalars.set(value, (text = stringScalar(value)));
  return text;
}

const OTHER_TYPE = [
  /^(|~|null|Null|NULL)$/,
  /^(true|True|TRUE|false|False|FALSE|y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF)$/,
  /^[-+]?(0|[1-9][0-9_]*|0x[0-9a-fA-F_]+|0o?[0-7_]+|0b[01_]+)$/,
  /^[-+]?(\.[0-9]+|[0-9][0-9_]*(\.[0-9_]*)?)([eE][-+]?[0-9]+)?$/,
  /^[-+]?\.(inf|Inf|INF)$|^\.(nan|NaN|NAN)$/,
  /^[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+(\.[0-9_]*)?$/,
  /^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}/,
];

/** yaml.v3's choice for a string: forced double quotes when its resolver reads the plain text as another type. */
function stringScalar(s: string): string {
  if (s.includes('\n') || OTHER_TYPE.some((re) => re.test(s))) return JSON.stringify(s);
  return yamlStringify(s, { version: '1.1', lineWidth: 0 }).slice(0, -1) === s ? s : `'${s.replace(/'/g, "''")}'`;
}
