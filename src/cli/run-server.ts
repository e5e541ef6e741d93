/** A running mode, as the CLI sees it: where it listens and how to stop it. */
export interface RunningServer {
  url: string;
  /** Printed as the second line when the mode writes one (the UI does not). */
  kubeconfigPath?: string;
  close(): Promise<void>;
}

export interface RunOptions {
  /** How long closing may take before the process exits 1 (default 10 s). */
  closeTimeoutMs?: number;
}

const CLOSE_TIMEOUT_MS = 10_000;
const SIGNAL_NUMBERS = { SIGINT: 2, SIGTERM: 15 } as const;

/**
 * Prints the URL on stdout (first line, so scripts can read it) and the kubeconfig's path (second
 * line), then waits for Ctrl-C or SIGTERM and closes cleanly: the recorder flushes, servers end
 * their watches. A signal always stops the process: a close that takes longer than
 * `closeTimeoutMs` exits 1 with a line on stderr naming the mode, and a second signal exits at
 * once (128 + its number, as a shell reports it).
 */
export function runUntilSignal(server: RunningServer, mode: string, options: RunOptions = {}): Promise<void> {
  const timeoutMs = options.closeTimeoutMs ?? CLOSE_TIMEOUT_MS;
  // The handlers go in before the lines go out: a script may send SIGTERM as soon as it reads them.
  const stopped = new Promise<void>((resolve) => {
    let closing = false;
    const stop = (signal: keyof typeof SIGNAL_NUMBERS) => {
      if (closing) {
        process.stderr.write(`kubetape ${mode}: ${signal} while closing, exiting without waiting for close\n`);
        process.exit(128 + SIGNAL_NUMBERS[signal]);
      }
      closing = true;
      const timer = setTimeout(() => {
        process.stderr.write(`kubetape ${mode}: close did not finish within ${timeoutMs / 1000} s, exiting\n`);
        process.exit(1);
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      server.close().then(done, done);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  process.stdout.write(`kubetape ${mode} listening on ${server.url}\n${server.kubeconfigPath ? `kubeconfig ${server.kubeconfigPath}\n` : ''}`);
  return stopped;
}
