/** Helpers for the record tests: real clients (kubectl), the recording file, the CLI, timing. */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';

export const ROOT = join(__dirname, '..', '..');
export const BIN = join(ROOT, 'bin', 'kubetape.js');

export { sleep, eventually, kubectl, type KubectlResult } from '../support/kube-clients';
import { kubectlWatch as watchLines, type KubectlResult } from '../support/kube-clients';

export function tempDir(prefix = 'kubetape-record-'): { dir: string; path: (name: string) => string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, path: (name) => join(dir, name), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** `kubectl get … -w` (see test/support/kube-clients.ts); resolves with what it printed. */
export async function kubectlWatch(...args: Parameters<typeof watchLines>): Promise<string> {
  return (await watchLines(...args)).stdout;
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
