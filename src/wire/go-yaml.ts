/**
 * A JSON value as YAML text the way Go's gopkg.in/yaml.v3 `yaml.Marshal` writes a node whose
 * styles were cleared (gnostic's compiler.Marshal, which makes the `yaml` of every `Any` in an
 * OpenAPI v2 protobuf document): block mappings and sequences, the indentation rule of yaml.v3's
 * yaml_emitter_increase_indent with 4 spaces (a collection inside a sequence item is indented 2
 * past the `- `, any other nested collection to the next multiple of 4, sequences in mappings
 * indented too), `{}` and `[]` for empty collections, a trailing newline. A mapping key on more
 * than one line or longer than 128 bytes is written as `? key` with the value after `: `.
 * Strings: go-yaml-scalar.ts.
 */
import { stringScalar, analyze, LINE_ENDED } from './go-yaml-scalar';

const INDENT = 4;

export function goYaml(value: unknown): string {
  const lines: string[] = [];
  const first = node(value, 0, 'root', lines);
  const text = first === undefined ? lines.join('\n') + '\n' : first + '\n';
  return text.includes(LINE_ENDED) ? text.split(LINE_ENDED + '\n').join('') : text;
}

type Parent = 'root' | 'mapping' | 'sequence';

/**
 * Appends `value`'s lines to `lines` and returns undefined, or returns its inline text (a scalar,
 * possibly followed by the lines of a literal block, or an empty collection). `indent` is the
 * enclosing collection's indentation.
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
      if (simpleKey(k)) {
        const key = `${pad(at)}${scalar(k, 0, true)}:`;
        const start = lines.length;
        lines.push(key);
        const inline = node(v, at, 'mapping', lines);
        if (inline !== undefined) lines[start] = `${key} ${inline}`;
        continue;
      }
      lines.push(`${pad(at)}? ${scalar(k, nestedIndent(at, 'mapping'))}`);
      const start = lines.length;
      const inline = node(v, at, 'mapping', lines);
      if (inline !== undefined) lines.push(`${pad(at)}: ${inline}`);
      // A collection value's first line follows the `:`, at its own indentation.
      else lines[start] = `${pad(at)}:${lines[start]!.slice(at + 1)}`;
    }
    return undefined;
  }
  return scalar(value, parent === 'root' ? INDENT : nestedIndent(indent, parent));
}

/** yaml_emitter_check_simple_key: a key on one line of at most 128 bytes. */
function simpleKey(k: string): boolean {
  return Buffer.byteLength(k) <= 128 && (k === '' || !analyze(k).multiline);
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

const oneLine = new Map<string, string>();

/** `indent`: where a multi-line scalar's later lines start. */
function scalar(value: unknown, indent: number, key = false): string {
  if (typeof value !== 'string') return value === null || value === undefined ? 'null' : String(value);
  let text = oneLine.get(value);
  if (text !== undefined) return text;
  text = stringScalar(value, indent, key);
  if (!text.includes('\n') && !/[\u2028\u2029]/.test(value)) oneLine.set(value, text);
  return text;
}
