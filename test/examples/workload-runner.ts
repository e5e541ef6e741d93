/**
 * A minimal runner for the workload files of examples/controllers/ (the step format of
 * `kubetape explore`: apply, wait, patch, delete, quiesce, sleep), for tests: it talks JSON over
 * HTTP to a serve, and treats "quiesce" as "no ConfigMap changed for that long".
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

type Json = Record<string, any>;

export interface Workload {
  steps: Json[];
}

export function loadWorkload(path: string): Workload {
  return parse(readFileSync(path, 'utf8')) as Workload;
}

export function durationMs(value: string | number | undefined, fallbackMs: number): number {
  if (value === undefined) return fallbackMs;
  if (typeof value === 'number') return value * 1000;
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)$/.exec(value.trim());
  if (!m) throw new Error(`bad duration ${value}`);
  return Number(m[1]) * { ms: 1, s: 1000, m: 60_000 }[m[2] as 'ms' | 's' | 'm'];
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** The path of a resource: core resources only (what the examples use), or namespaces. */
function resourcePath(resource: string, namespace?: string, name?: string): string {
  if (resource.includes('.')) throw new Error(`the test runner knows core resources only, not ${resource}`);
  const base = resource === 'namespaces' ? '/api/v1/namespaces' : `/api/v1/namespaces/${namespace ?? 'default'}/${resource}`;
  return name ? `${base}/${name}` : base;
}

function pluralOf(kind: string): string {
  return `${kind.toLowerCase()}s`;
}

/** `{.a.b\.c}` → the value at a → b.c, or undefined. */
export function jsonpath(obj: unknown, expr: string): unknown {
  const inner = expr.replace(/^\{\.?/, '').replace(/\}$/, '');
  const keys = inner.split(/(?<!\\)\./).map((k) => k.replace(/\\\./g, '.'));
  let value: any = obj;
  for (const key of keys) value = value == null ? undefined : value[key];
  return value;
}

export class WorkloadRunner {
  constructor(
    private readonly url: string,
    private readonly fingerprint: () => string,
  ) {}

  private async call(method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<{ status: number; json: Json }> {
    const res = await fetch(this.url + path, {
      method,
      headers: body === undefined ? {} : { 'content-type': contentType },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, json: text ? JSON.parse(text) : {} };
  }

  async run(workload: Workload): Promise<void> {
    for (const [index, step] of workload.steps.entries()) {
      try {
        await this.step(step);
      } catch (err) {
        throw new Error(`step ${index + 1} ${JSON.stringify(step)}: ${(err as Error).message}`);
      }
    }
  }

  private async step(step: Json): Promise<void> {
    if (step.apply) return this.apply(step.apply.object);
    if (step.wait) return this.wait(step.wait);
    if (step.patch) {
      const p = step.patch;
      const type = { merge: 'application/merge-patch+json', json: 'application/json-patch+json', strategic: 'application/strategic-merge-patch+json' }[p.type as string] ?? 'application/merge-patch+json';
      const res = await this.call('PATCH', resourcePath(p.resource, p.namespace, p.name), p.patch, type);
      if (res.status !== 200) throw new Error(`patch answered ${res.status}`);
      return;
    }
    if (step.delete) {
      const d = step.delete;
      const res = await this.call('DELETE', resourcePath(d.resource, d.namespace, d.name));
      if (res.status !== 200 && res.status !== 202) throw new Error(`delete answered ${res.status}`);
      return;
    }
    if (step.quiesce) return this.quiesce(durationMs(step.quiesce.seconds, 2000));
    if (step.sleep !== undefined) return sleep(durationMs(step.sleep, 0));
    throw new Error('unknown step');
  }

  private async apply(object: Json): Promise<void> {
    const resource = pluralOf(object.kind);
    const { name, namespace } = object.metadata;
    const created = await this.call('POST', resourcePath(resource, namespace), object);
    if (created.status === 201) return;
    if (created.status !== 409) throw new Error(`create answered ${created.status}`);
    const current = await this.call('GET', resourcePath(resource, namespace, name));
    const body = { ...object, metadata: { ...object.metadata, resourceVersion: current.json.metadata.resourceVersion } };
    const updated = await this.call('PUT', resourcePath(resource, namespace, name), body);
    if (updated.status !== 200) throw new Error(`update answered ${updated.status}`);
  }

  private async wait(w: Json): Promise<void> {
    const end = Date.now() + durationMs(w.timeout, 30_000);
    for (;;) {
      const res = await this.call('GET', resourcePath(w.resource, w.namespace, w.name));
      if (w.gone ? res.status === 404 : res.status === 200 && (w.jsonpath === undefined || String(jsonpath(res.json, w.jsonpath)) === String(w.equals))) return;
      if (Date.now() > end) throw new Error(`timed out (last answer ${res.status})`);
      await sleep(50);
    }
  }

  /** Until the fingerprint (of the controller's objects) has not changed for `ms`. */
  private async quiesce(ms: number): Promise<void> {
    let last = this.fingerprint();
    let since = Date.now();
    while (Date.now() - since < ms) {
      await sleep(100);
      const now = this.fingerprint();
      if (now !== last) {
        last = now;
        since = Date.now();
      }
    }
  }
}

/** `node examples/controllers/<name>/<variant>.js` with KUBECONFIG; resolves once it is watching. */
export async function startController(script: string, kubeconfig: string, log: string[]): Promise<ChildProcess> {
  const child = spawn(process.execPath, [script], { env: { ...process.env, KUBECONFIG: kubeconfig }, stdio: ['ignore', 'ignore', 'pipe'] });
  let buffered = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} did not start: ${log.join('\n')}`)), 15_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      log.push(...lines);
      if (lines.some((l) => l.includes('watching configmaps'))) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited with ${code}: ${log.join('\n')}`));
    });
  });
  return child;
}

/** SIGTERM, then the exit code (the examples exit 0 on SIGTERM). */
export function stopController(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve(child.exitCode);
    child.once('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });
}
