/**
 * Runs a workload's steps in order against the serve under test, as its own client: apply
 * (create, or update when it exists), wait (a field equals a value, or the object is gone),
 * patch, delete, quiesce (until the controller has not written for a while), sleep. A step that
 * fails (an API error, a wait that times out) fails the run with the step's number.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Obj, ObjectRef, Workload, WorkloadStep } from './workload';
import type { WorkloadClient } from './workload-client';

export interface WorkloadRunnerDeps {
  client: WorkloadClient;
  /** Resolves once the controller has made no write for `ms`. */
  quiesce(ms: number): Promise<void>;
  /** Told as each step begins. */
  onStep?(n: number, step: string): void;
  /** The run's time (ms), for `hopeless`. */
  now?(): number;
  /** Why a wait begun at `since` (run time) can no longer be met (the controller went quiescent), or undefined while it may. */
  hopeless?(since: number): string | undefined;
}

const PATCH_CONTENT_TYPES = {
  merge: 'application/merge-patch+json',
  json: 'application/json-patch+json',
  strategic: 'application/strategic-merge-patch+json',
} as const;

export async function runWorkload(workload: Workload, deps: WorkloadRunnerDeps): Promise<void> {
  for (const [i, step] of workload.steps.entries()) {
    try {
      deps.onStep?.(i + 1, Object.keys(step)[0]!);
      await runStep(step, deps);
    } catch (err) {
      throw new Error(`workload step ${i + 1} (${Object.keys(step)[0]}): ${(err as Error).message}`);
    }
  }
}

async function runStep(step: WorkloadStep, deps: WorkloadRunnerDeps): Promise<void> {
  const { client } = deps;
  if ('apply' in step) {
    for (const obj of step.apply.objects) await apply(client, obj);
  } else if ('wait' in step) {
    await waitFor(client, step.wait, deps);
  } else if ('patch' in step) {
    const { type, patch } = step.patch;
    expectOk(await client.request('PATCH', await objectPath(client, step.patch), patch, PATCH_CONTENT_TYPES[type]), 'patch');
  } else if ('delete' in step) {
    expectOk(await client.request('DELETE', await objectPath(client, step.delete)), 'delete');
  } else if ('quiesce' in step) {
    await deps.quiesce(step.quiesce.ms);
  } else {
    await sleep(step.sleep.ms);
  }
}

async function apply(client: WorkloadClient, obj: Obj): Promise<void> {
  const collection = await client.pathForObject(obj);
  const created = await client.request('POST', collection, obj);
  if (created.status !== 409 || !obj.metadata?.name) return expectOk(created, `create ${obj.kind} ${obj.metadata?.name ?? ''}`);
  for (let attempt = 0; attempt < 5; attempt++) {
    const path = `${collection}/${obj.metadata.name}`;
    const current = await client.request('GET', path);
    expectOk(current, `get ${obj.kind} ${obj.metadata.name}`);
    const update = { ...obj, metadata: { ...current.body!.metadata, ...obj.metadata, resourceVersion: current.body!.metadata.resourceVersion } };
    const updated = await client.request('PUT', path, update);
    if (updated.status !== 409) return expectOk(updated, `update ${obj.kind} ${obj.metadata.name}`);
  }
  throw new Error(`update ${obj.kind} ${obj.metadata.name}: conflicts 5 times in a row`);
}

async function waitFor(client: WorkloadClient, w: ObjectRef & { jsonpath?: string; equals?: string; gone?: boolean; timeoutMs: number }, deps: WorkloadRunnerDeps): Promise<void> {
  const path = await objectPath(client, w);
  const started = Date.now();
  const deadline = started + w.timeoutMs;
  const since = deps.now?.();
  let last = '';
  for (;;) {
    const got = await client.request('GET', path);
    if (w.gone) {
      if (got.status === 404) return;
      last = 'still exists';
    } else if (got.status === 200) {
      if (!w.jsonpath) return;
      const value = readPath(got.body!, w.jsonpath);
      if (w.equals === undefined ? value !== undefined : value === w.equals) return;
      last = `${w.jsonpath} is ${value === undefined ? 'absent' : JSON.stringify(value)}`;
    } else {
      last = `answered ${got.status}`;
    }
    const what = `${w.resource} ${w.namespace ? `${w.namespace}/` : ''}${w.name}: ${last}`;
    if (Date.now() >= deadline) throw new Error(`timed out after ${w.timeoutMs} ms waiting for ${what}`);
    const hopeless = since === undefined ? undefined : deps.hopeless?.(since);
    if (hopeless) throw new Error(`gave up after ${Date.now() - started} ms waiting for ${what} (${hopeless})`);
    await sleep(50);
  }
}

/** `{.a.b}` → the value at a.b, as a string (objects as JSON), or undefined. */
export function readPath(obj: Obj, jsonpath: string): string | undefined {
  let v: any = obj;
  for (const field of jsonpath.slice(2, -1).split('.')) v = v?.[field];
  if (v === undefined || v === null) return undefined;
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

async function objectPath(client: WorkloadClient, ref: ObjectRef): Promise<string> {
  return `${await client.collectionPath(ref.resource, ref.namespace)}/${encodeURIComponent(ref.name)}`;
}

function expectOk(answer: { status: number; body: Obj | undefined }, what: string): void {
  if (answer.status >= 200 && answer.status < 300) return;
  throw new Error(`${what}: ${answer.status} ${answer.body?.reason ?? ''} ${answer.body?.message ?? ''}`.trim());
}
