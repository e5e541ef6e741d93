/** Shared client helpers for integration tests: kubectl (the dispatcher at /usr/bin/kubectl) and polling. */
import { execFile, spawn } from 'node:child_process';
import { KubeConfig } from '@kubernetes/client-node';

export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** No ambient kubeconfig, no colour, a stable terminal width. */
function kubectlEnv(): NodeJS.ProcessEnv {
  const { KUBECONFIG: _ignored, ...env } = process.env;
  return { ...env, NO_COLOR: '1', COLUMNS: '200' };
}

/** Runs kubectl against a kubeconfig with its own discovery cache directory. */
export function kubectl(kubeconfig: string, cacheDir: string, args: string[], timeoutMs = 30_000): Promise<KubectlResult> {
  return new Promise((resolve) => {
    execFile('/usr/bin/kubectl', ['--kubeconfig', kubeconfig, '--cache-dir', cacheDir, ...args], { timeout: timeoutMs, env: kubectlEnv() }, (err, stdout, stderr) => {
      const code = err ? (err as { code?: unknown }).code : 0;
      resolve({ code: typeof code === 'number' ? code : 1, stdout, stderr });
    });
  });
}

/**
 * `kubectl get … -w`: runs `during` once the first `ready` lines are printed, stops kubectl once
 * `lines` lines are printed (or after `timeoutMs`), returns what it printed and when each line came.
 */
export function kubectlWatch(
  kubeconfig: string,
  cacheDir: string,
  args: string[],
  opts: { ready: number; lines: number; during?: () => void | Promise<void>; timeoutMs?: number },
): Promise<{ stdout: string; lineTimes: number[] }> {
  return new Promise((resolve) => {
    const child = spawn('/usr/bin/kubectl', ['--kubeconfig', kubeconfig, '--cache-dir', cacheDir, ...args], { env: kubectlEnv() });
    let stdout = '';
    const lineTimes: number[] = [];
    let started = false;
    const stop = () => {
      clearTimeout(timer);
      child.kill('SIGKILL');
    };
    const timer = setTimeout(stop, opts.timeoutMs ?? 20_000);
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const count = stdout.split('\n').length - 1;
      while (lineTimes.length < count) lineTimes.push(performance.now());
      if (!started && count >= opts.ready) {
        started = true;
        void opts.during?.();
      }
      if (count >= opts.lines) stop();
    });
    child.on('close', () => resolve({ stdout, lineTimes }));
  });
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Polls until `check` holds or `timeoutMs` passes; returns whether it held. */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) return false;
    await sleep(20);
  }
  return true;
}

/** A client-node KubeConfig for a server on plain HTTP at `url` (client-node 1.x refuses plain HTTP unless TLS verification is marked skipped). */
export function clientNodeConfig(url: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'kubetape', server: url, skipTLSVerify: true }],
    users: [{ name: 'kubetape' }],
    contexts: [{ name: 'kubetape', cluster: 'kubetape', user: 'kubetape' }],
    currentContext: 'kubetape',
  });
  return kc;
}
