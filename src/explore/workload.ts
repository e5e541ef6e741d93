/**
 * The workload file of `kubetape explore`: steps kubetape performs as its own client. Parsing
 * checks every step and names the step (1-based) and the field of the first mistake; file paths
 * are resolved against the workload file's folder.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parse as parseYaml, parseAllDocuments } from 'yaml';
import { UsageError } from '../errors/usage-error';
import { parseDuration } from '../serve/duration';
import { isPlainObject } from '../wire/json-object';

export type Obj = Record<string, any>;

export interface ObjectRef {
  resource: string;
  namespace?: string;
  name: string;
}

export type WorkloadStep =
  | { apply: { objects: Obj[]; source: string } }
  | { wait: ObjectRef & { jsonpath?: string; equals?: string; gone?: boolean; timeoutMs: number } }
  | { patch: ObjectRef & { type: 'merge' | 'json' | 'strategic'; patch: unknown } }
  | { delete: ObjectRef }
  | { quiesce: { ms: number } }
  | { sleep: { ms: number } };

export interface Workload {
  /** The workload file (absolute). */
  path: string;
  steps: WorkloadStep[];
}

/** A mistake in a workload file: names the step and the field. */
export class WorkloadError extends UsageError {}

export const STEP_KINDS = ['apply', 'wait', 'patch', 'delete', 'quiesce', 'sleep'] as const;
const PATCH_TYPES = ['merge', 'json', 'strategic'] as const;
const DEFAULT_WAIT_MS = 30_000;

export function loadWorkload(path: string): Workload {
  const abs = resolve(path);
  let text: string;
  try {
    text = readFileSync(abs, 'utf8');
  } catch (err) {
    throw new WorkloadError(`workload ${path}: cannot read it: ${(err as Error).message}`);
  }
  return parseWorkload(text, abs);
}

export function parseWorkload(text: string, path: string): Workload {
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (err) {
    throw new WorkloadError(`workload ${path}: not YAML: ${(err as Error).message}`);
  }
  if (!isPlainObject(doc) || !Array.isArray(doc.steps)) throw new WorkloadError(`workload ${path}: field "steps" must be a list of steps`);
  const base = dirname(path);
  const steps = doc.steps.map((raw: unknown, i: number) => parseStep(raw, new StepContext(path, i + 1), base));
  return { path, steps };
}

class StepContext {
  constructor(readonly path: string, readonly n: number, readonly kind = '') {}
  of(kind: string): StepContext {
    return new StepContext(this.path, this.n, kind);
  }
  fail(field: string, problem: string): never {
    const where = this.kind ? `${this.kind}.${field}` : field;
    throw new WorkloadError(`workload ${this.path}: step ${this.n}${this.kind ? ` (${this.kind})` : ''}: field "${where}" ${problem}`);
  }
}

function parseStep(raw: unknown, ctx: StepContext, base: string): WorkloadStep {
  if (!isPlainObject(raw)) ctx.fail('step', `must be a mapping with one of ${STEP_KINDS.join(', ')}`);
  const keys = Object.keys(raw);
  const kind = keys.find((k) => (STEP_KINDS as readonly string[]).includes(k));
  if (!kind || keys.length !== 1) ctx.fail(keys.find((k) => !(STEP_KINDS as readonly string[]).includes(k)) ?? 'step', `is not a step: use exactly one of ${STEP_KINDS.join(', ')}`);
  const c = ctx.of(kind);
  const body = raw[kind];
  switch (kind) {
    case 'apply':
      return { apply: parseApply(body, c, base) };
    case 'wait': {
      const b = mapping(body, c);
      const ref = objectRef(b, c);
      const gone = optional(b, 'gone', 'boolean', c);
      const jsonpath = optional(b, 'jsonpath', 'string', c);
      if (jsonpath !== undefined && !/^\{(\.[A-Za-z0-9_-]+)+\}$/.test(jsonpath)) c.fail('jsonpath', `must be a path like '{.data.ready}' (fields only), got '${jsonpath}'`);
      const equals = b.equals === undefined ? undefined : String(b.equals);
      if (gone && (jsonpath || equals !== undefined)) c.fail('gone', 'cannot be combined with jsonpath/equals');
      if (equals !== undefined && !jsonpath) c.fail('equals', 'needs a jsonpath');
      return { wait: { ...ref, gone, jsonpath, equals, timeoutMs: duration(b.timeout, 'timeout', c) ?? DEFAULT_WAIT_MS } };
    }
    case 'patch': {
      const b = mapping(body, c);
      const type = b.type ?? 'merge';
      if (!(PATCH_TYPES as readonly string[]).includes(type)) c.fail('type', `must be one of ${PATCH_TYPES.join(', ')}, got ${JSON.stringify(type)}`);
      if (b.patch === undefined) c.fail('patch', 'is required');
      if (type === 'json' ? !Array.isArray(b.patch) : !isPlainObject(b.patch)) c.fail('patch', type === 'json' ? 'must be a list of JSON patch operations' : 'must be a mapping');
      return { patch: { ...objectRef(b, c), type, patch: b.patch } };
    }
    case 'delete':
      return { delete: objectRef(mapping(body, c), c) };
    case 'quiesce': {
      const b = mapping(body, c);
      const ms = b.seconds !== undefined ? seconds(b.seconds, 'seconds', c) : duration(b.for, 'for', c);
      if (ms === undefined) return c.fail('seconds', 'is required');
      return { quiesce: { ms } };
    }
    default: {
      const ms = isPlainObject(body) ? duration(body.for, 'for', c) : duration(body, 'sleep', ctx);
      if (ms === undefined) return ctx.fail('sleep', 'needs a duration (500ms, 2s)');
      return { sleep: { ms } };
    }
  }
}

function parseApply(body: unknown, c: StepContext, base: string): { objects: Obj[]; source: string } {
  const b = mapping(body, c);
  if ((b.file === undefined) === (b.object === undefined)) c.fail('file', 'give either file or object');
  let objects: Obj[];
  let source: string;
  if (b.file !== undefined) {
    if (typeof b.file !== 'string') c.fail('file', 'must be a path');
    source = resolve(base, b.file);
    let text: string;
    try {
      text = readFileSync(source, 'utf8');
    } catch (err) {
      c.fail('file', `cannot be read: ${(err as Error).message}`);
    }
    objects = parseAllDocuments(text).map((d) => d.toJS()).filter((o) => o != null);
  } else {
    objects = [b.object];
    source = 'object';
  }
  objects.forEach((o, i) => {
    const field = b.file !== undefined ? `file[${i}]` : 'object';
    if (!isPlainObject(o)) c.fail(field, 'must be a Kubernetes object');
    if (typeof o.apiVersion !== 'string') c.fail(`${field}.apiVersion`, 'is required');
    if (typeof o.kind !== 'string') c.fail(`${field}.kind`, 'is required');
    if (!isPlainObject(o.metadata) || (typeof o.metadata.name !== 'string' && typeof o.metadata.generateName !== 'string')) c.fail(`${field}.metadata.name`, 'is required');
  });
  return { objects, source };
}

function objectRef(b: Obj, c: StepContext): ObjectRef {
  const resource = b.resource;
  if (typeof resource !== 'string' || !/^[a-z0-9-]+(\.[a-z0-9.-]+)?$/.test(resource)) c.fail('resource', 'must be a plural resource name, optionally name.group (deployments.apps)');
  if (typeof b.name !== 'string' || b.name === '') c.fail('name', 'is required');
  const namespace = optional(b, 'namespace', 'string', c);
  return { resource, name: b.name, ...(namespace ? { namespace } : {}) };
}

function mapping(body: unknown, c: StepContext): Obj {
  if (!isPlainObject(body)) c.fail('', 'must be a mapping');
  return body;
}

function optional<T extends 'string' | 'boolean'>(b: Obj, field: string, type: T, c: StepContext): (T extends 'string' ? string : boolean) | undefined {
  if (b[field] === undefined) return undefined;
  if (typeof b[field] !== type) c.fail(field, `must be a ${type}`);
  return b[field];
}

function duration(value: unknown, field: string, c: StepContext): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'number') return seconds(value, field, c);
  try {
    return parseDuration(String(value));
  } catch (err) {
    c.fail(field, (err as Error).message);
  }
}

function seconds(value: unknown, field: string, c: StepContext): number {
  const n = Number(value);
  if (!(n >= 0)) c.fail(field, `must be a number of seconds, got ${JSON.stringify(value)}`);
  return n * 1000;
}

