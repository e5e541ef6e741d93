import { execFile, spawn } from 'node:child_process';

export interface KubectlResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs /usr/bin/kubectl against a kubeconfig with its own discovery cache directory. */
export function kubectl(kubeconfig: string, cacheDir: string, args: string[]): Promise<KubectlResult> {
  return new Promise((resolve) => {
    execFile('/usr/bin/kubectl', ['--kubeconfig', kubeconfig, '--cache-dir', cacheDir, ...args], { timeout: 30_000, env: kubectlEnv() }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

/**
 * `kubectl get … -w`: runs `during` once the first `ready` lines are printed, stops kubectl once
 * `lines` lines are printed (or after `timeoutMs`), returns what it printed.
 */
export function kubectlWatch(
  kubeconfig: string,
  cacheDir: string,
  args: string[],
  opts: { ready: number; lines: number; during?: () => Promise<void>; timeoutMs?: number },
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
    const timer = setTimeout(stop, opts.timeoutMs ?? 15_000);
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

function kubectlEnv(): NodeJS.ProcessEnv {
  // No ambient kubeconfig, no colour, a stable terminal width.
  const { KUBECONFIG: _k, ...env } = process.env;
  return { ...env, NO_COLOR: '1', COLUMNS: '200' };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls until `check` is true or `timeoutMs` passes; returns whether it became true. */
export async function eventually(check: () => boolean, timeoutMs = 10_000): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) return false;
    await sleep(20);
  }
  return true;
}
