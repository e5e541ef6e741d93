/** Helpers for the record tests: real clients (kubectl, client-node informer), the recording file, timing. */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { CoreV1Api, KubeConfig, makeInformer, type V1ConfigMap } from '@kubernetes/client-node';

export const ROOT = join(__dirname, '..', '..');
export const BIN = join(ROOT, 'bin', 'kubetape.js');

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls until `check` holds or `timeoutMs` passes; returns whether it held. */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) return false;
    await sleep(20);
  }
  return true;
}

export function tempDir(prefix = 'kubetape-record-'): { dir: string; path: (name: string) => string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, path: (name) => join(dir, name), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

function kubectlEnv(): NodeJS.ProcessEnv {
  const { KUBECONFIG: _ignored, ...env } = process.env;
  return { ...env, NO_COLOR: '1', COLUMNS: '200' };
}

export function kubectl(kubeconfig: string, cacheDir: string, args: string[]): Promise<KubectlResult> {
  return new Promise((resolve) => {
    execFile('/usr/bin/kubectl', ['--kubeconfig', kubeconfig, '--cache-dir', cacheDir, ...args], { timeout: 30_000, env: kubectlEnv() }, (err, stdout, stderr) =>
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }));
  });
}

/** `kubectl get … -w`: calls `during` once `ready` lines are printed, kills kubectl at `lines` lines; returns what it printed. */
export function kubectlWatch(
  kubeconfig: string,
  cacheDir: string,
  args: string[],
  opts: { ready: number; lines: number; during?: () => void | Promise<void>; timeoutMs?: number },
): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn('/usr/bin/kubectl', ['--kubeconfig', kubeconfig, '--cache-dir', cacheDir, ...args], { env: kubectlEnv() });
    let stdout = '';
    let started = false;
    const stop = () => {
      clearTimeout(timer);
      child.kill('SIGKILL');
    };
    const timer = setTimeout(stop, opts.timeoutMs ?? 20_000);
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const count = stdout.split('\n').length - 1;
      if (!started && count >= opts.ready) {
        started = true;
        void opts.during?.();
      }
      if (count >= opts.lines) stop();
    });
    child.on('close', () => resolve(stdout));
  });
}

/** A client-node informer on NAMESPACE/configmaps (client-node 1.4 needs skip-tls-verify to talk plain http). */
export async function startInformer(kubeconfigPath: string, namespace: string) {
  const loaded = new KubeConfig();
  loaded.loadFromFile(kubeconfigPath);
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: loaded.getClusters().map((c) => ({ ...c, skipTLSVerify: c.server.startsWith('http:') ? true : c.skipTLSVerify })),
    users: loaded.getUsers(),
    contexts: loaded.getContexts(),
    currentContext: loaded.getCurrentContext(),
  });
  const api = kc.makeApiClient(CoreV1Api);
  const informer = makeInformer<V1ConfigMap>(kc, `/api/v1/namespaces/${namespace}/configmaps`, () => api.listNamespacedConfigMap({ namespace }));
  const events: string[] = [];
  for (const type of ['add', 'update', 'delete'] as const) {
    informer.on(type, (o: V1ConfigMap) => events.push(`${type} ${o.metadata?.name} ${o.metadata?.resourceVersion}`));
  }
  await informer.start();
  return {
    events,
    cache: () => informer.list().map((o) => `${o.metadata?.name} ${o.metadata?.resourceVersion}`).sort(),
    stop: () => informer.stop(),
  };
}

/** Opens a recording read-only (the writer may still be running: WAL readers see committed rows). */
export function openDb(path: string): Database.Database {
  return new Database(path, { readonly: true, fileMustExist: true });
}

export function rows<T = Record<string, unknown>>(path: string, sql: string, ...params: unknown[]): T[] {
  const db = openDb(path);
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

/** Runs the built CLI (`npm run build` first) and collects its output. */
export function cli(args: string[], opts: { timeoutMs?: number; env?: NodeJS.ProcessEnv } = {}): Promise<KubectlResult> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { timeout: opts.timeoutMs ?? 20_000, env: { ...process.env, ...opts.env } }, (err, stdout, stderr) =>
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }));
  });
}

/** Starts `kubetape record` from the built CLI; resolves with its URL once it prints the banner. */
export function spawnRecorder(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ child: ChildProcess; url: string; stderr: () => string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'record', '--listen', '127.0.0.1:0', '--log-level', 'warn', ...args], { env: { ...process.env, ...env } });
    let out = '';
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.stdout.on('data', (d) => {
      out += d;
      const m = /^kubetape record listening on (http:\/\/\S+)$/m.exec(out);
      if (m) resolve({ child, url: m[1]!, stderr: () => err });
    });
    child.on('exit', (code) => reject(new Error(`kubetape record exited ${code}: ${err}`)));
  });
}
