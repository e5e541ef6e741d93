/**
 * Values of an applied configuration that do not fit their scalar, map or list type, as
 * structured-merge-diff's validating walker (typed/validate.go, run by the fieldmanager's
 * ObjectToTyped) reports them: `.spec.replicas: expected numeric (int or float), got string`
 * (%T), `.data.k: expected string, got &value.valueUnstructured{Value:1}` (%#v),
 * `.spec.paused: expected boolean, got &{yes}`, `.spec.template: expected map, got &{x}`,
 * `.spec.template.spec.containers: expected list, got &{c}` (%v). Int-or-string and quantity
 * fields are untyped scalars there and accept anything. The caller wraps them in a
 * TypedValueError. Pure.
 */
import { pathString } from './field-set';
import { elementOf, itemElement } from './typed-node';
import { fieldElement } from './path-element';
import type { SchemaNode } from './schema-node';
import { isPlainObject } from '../wire/json-object';

/** The type errors of `config` under `node`, in walk order (empty when it fits). */
export function applyTypeErrors(config: unknown, node: SchemaNode | undefined): string[] {
  const errors: string[] = [];
  walk(config, node, [], errors);
  return errors;
}

function walk(value: unknown, node: SchemaNode | undefined, path: string[], errors: string[]): void {
  if (!node || value === null || value === undefined) return;
  const at = () => pathString(path);
  switch (node.type) {
    case 'object':
    case 'map': {
      if (!isPlainObject(value)) return void errors.push(`${at()}: expected map, got ${goPointerValue(value)}`);
      for (const [k, v] of Object.entries(value)) {
        const member = node.properties?.get(k) ?? node.values;
        if (!member) continue;
        path.push(fieldElement(k));
        walk(v, member, path, errors);
        path.pop();
      }
      return;
    }
    case 'array': {
      if (!Array.isArray(value)) return void errors.push(`${at()}: expected list, got ${goPointerValue(value)}`);
      value.forEach((item, i) => {
        let pe: string;
        try {
          pe = itemElement(node, item, i);
        } catch {
          return; // a bad list item is reported by the field set's own walk
        }
        path.push(pe);
        walk(item, elementOf(node), path, errors);
        path.pop();
      });
      return;
    }
    case 'integer':
    case 'number':
      if (typeof value !== 'number') errors.push(`${at()}: expected numeric (int or float), got ${goTypeName(value)}`);
      return;
    case 'string':
      if (typeof value !== 'string') errors.push(`${at()}: expected string, got &value.valueUnstructured{Value:${goSyntax(value)}}`);
      return;
    case 'boolean':
      if (typeof value !== 'boolean') errors.push(`${at()}: expected boolean, got ${goPointerValue(value)}`);
      return;
    default:
      return;
  }
}

/** %T of a value decoded from JSON into interface{} (numbers are float64). */
function goTypeName(value: unknown): string {
  if (Array.isArray(value)) return '[]interface {}';
  if (isPlainObject(value)) return 'map[string]interface {}';
  return typeof value === 'boolean' ? 'bool' : typeof value === 'number' ? 'float64' : 'string';
}

/** %v of a *valueUnstructured: `&{` + %v of the value + `}`. */
function goPointerValue(value: unknown): string {
  return `&{${goPlain(value)}}`;
}

function goPlain(value: unknown): string {
  if (value === null || value === undefined) return '<nil>';
  if (Array.isArray(value)) return `[${value.map(goPlain).join(' ')}]`;
  if (isPlainObject(value)) return `map[${Object.keys(value).sort().map((k) => `${k}:${goPlain(value[k])}`).join(' ')}]`;
  return typeof value === 'number' ? goFloat(value) : String(value);
}

/** %#v of a value decoded into interface{}. */
function goSyntax(value: unknown): string {
  if (value === null || value === undefined) return 'interface {}(nil)';
  if (Array.isArray(value)) return `[]interface {}{${value.map(goSyntax).join(', ')}}`;
  if (isPlainObject(value)) return `map[string]interface {}{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${goSyntax(value[k])}`).join(', ')}}`;
  if (typeof value === 'string') return JSON.stringify(value);
  return typeof value === 'number' ? goFloat(value) : String(value);
}

/** strconv.FormatFloat(f, 'g', -1, 64) as %v prints a float64: exponent from 1e21. */
function goFloat(n: number): string {
  const abs = Math.abs(n);
  if (abs !== 0 && (abs >= 1e21 || abs < 1e-4)) return n.toExponential().replace(/e([+-])(\d)$/, 'e$10$2');
  return String(n);
}
