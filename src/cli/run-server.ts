/** A running mode, as the CLI sees it: where it listens and how to stop it. */
export interface RunningServer {
  url: string;
  /** Printed as the second line when the mode writes one (the UI does not). */
  kubeconfigPath?: string;
  close(): Promise<void>;
}

/**
 * Prints the URL on stdout (first line, so scripts can read it) and the kubeconfig's path (second
 * line), then waits for Ctrl-C or SIGTERM and closes cleanly: the recorder flushes, servers end
 * their watches.
 */
export function runUntilSignal(server: RunningServer, banner: string): Promise<void> {
  // The handlers go in before the lines go out: a script may send SIGTERM as soon as it reads them.
  const stopped = new Promise<void>((resolve) => {
    let closing = false;
    const stop = () => {
      if (closing) return;
      closing = true;
      server.close().then(resolve, resolve);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  process.stdout.write(`${banner} ${server.url}\n${server.kubeconfigPath ? `kubeconfig ${server.kubeconfigPath}\n` : ''}`);
  return stopped;
}
