import { spawn } from 'node:child_process';
import { get, type ClientRequest } from 'node:http';
import { join } from 'node:path';

/**
 * The CLI's signal handling (src/cli/run-server.ts, built: `npm run build` first) around a mode
 * whose close never finishes: an HTTP server that closes as `server.close()` does, waiting for
 * its requests to end, while the test holds a streamed response (a watch) open.
 */
const runServer = join(__dirname, '..', '..', 'dist', 'cli', 'run-server.js');

function hangingMode(closeTimeoutMs: number) {
  const script = `
    const { runUntilSignal } = require(${JSON.stringify(runServer)});
    const server = require('node:http').createServer((req, res) => res.writeHead(200).write('{}\\n'));
    server.listen(0, '127.0.0.1', () => {
      const url = 'http://127.0.0.1:' + server.address().port;
      runUntilSignal({ url, kubeconfigPath: '/dev/null', close: () => new Promise((r) => server.close(r)) }, 'serve', { closeTimeoutMs: ${closeTimeoutMs} });
    });
  `;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let watch: ClientRequest | undefined;
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  // Started once a watch is open on it.
  const started = new Promise<void>((resolve) =>
    child.stdout.on('data', () => {
      const url = /listening on (\S+)/.exec(stdout)?.[1];
      if (url && stdout.includes('kubeconfig') && !watch) watch = get(`${url}/api/v1/configmaps?watch=1`, (res) => res.once('data', () => resolve())).on('error', () => undefined);
    }),
  );
  const exited = new Promise<{ code: number | null; at: number }>((resolve) => child.on('exit', (code) => resolve({ code, at: performance.now() })));
  exited.then(() => watch?.destroy());
  return { child, started, exited, stderr: () => stderr, stdout: () => stdout };
}

test('a close that hangs ends the process after the close timeout, with exit code 1 and one line naming the mode', async () => {
  const mode = hangingMode(700);
  await mode.started;
  const sentAt = performance.now();
  mode.child.kill('SIGTERM');
  const { code, at } = await mode.exited;
  expect(code).toBe(1);
  expect(at - sentAt).toBeGreaterThanOrEqual(650);
  expect(mode.stderr()).toBe('kubetape serve: close did not finish within 0.7 s, exiting\n');
  expect(mode.stdout()).toMatch(/^kubetape serve listening on http:\/\/127\.0\.0\.1:\d+\nkubeconfig \/dev\/null\n$/);
});

test('a second signal while closing exits at once', async () => {
  const mode = hangingMode(60_000);
  await mode.started;
  mode.child.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 200));
  expect(mode.child.exitCode).toBeNull(); // still closing
  const sentAt = performance.now();
  mode.child.kill('SIGINT');
  const { code, at } = await mode.exited;
  expect(code).toBe(130);
  expect(at - sentAt).toBeLessThan(5_000);
  expect(mode.stderr()).toBe('kubetape serve: SIGINT while closing, exiting without waiting for close\n');
});
