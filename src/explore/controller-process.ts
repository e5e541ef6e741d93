/**
 * The controller under test: any shell command, started in a process group of its own with
 * `KUBECONFIG` pointing at its serve, its output appended to a log file. `kill()` is SIGKILL to
 * the whole group (a crash: nothing runs after it); `stop()` is SIGTERM, then SIGKILL after a
 * grace period; `restart()` kills and starts the same command again.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, closeSync, writeSync } from 'node:fs';

export interface ControllerOptions {
  command: string;
  kubeconfig: string;
  cwd: string;
  /** Where stdout and stderr go (appended); none: discarded. */
  logFile?: string;
}

/** The controllers started and not yet seen exiting, so `killAllControllers` leaves none behind. */
const live = new Set<ControllerProcess>();

/** SIGKILL to every controller still running (explore interrupted: their process groups would outlive it). */
export function killAllControllers(): void {
  for (const c of live) c.kill();
}

export class ControllerProcess {
  private child: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();
  /** How many times the command was started. */
  starts = 0;

  constructor(private readonly options: ControllerOptions) {}

  start(): void {
    const fd = this.options.logFile ? openSync(this.options.logFile, 'a') : undefined;
    if (fd !== undefined) writeSync(fd, `--- start ${this.starts + 1}: ${this.options.command}\n`);
    const child = spawn(this.options.command, {
      shell: true,
      detached: true,
      cwd: this.options.cwd,
      env: { ...process.env, KUBECONFIG: this.options.kubeconfig },
      stdio: ['ignore', fd ?? 'ignore', fd ?? 'ignore'],
    });
    if (fd !== undefined) closeSync(fd);
    this.starts++;
    this.child = child;
    live.add(this);
    this.exited = new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.once('error', () => resolve());
    }).then(() => {
      if (this.child === child) live.delete(this);
    });
  }

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** SIGKILL to the process group, at once (synchronous); `exited()` resolves when it is gone. */
  kill(): void {
    this.signal('SIGKILL');
  }

  exitedPromise(): Promise<void> {
    return this.exited;
  }

  async stop(graceMs = 1000): Promise<void> {
    if (!this.child) return;
    this.signal('SIGTERM');
    const timer = setTimeout(() => this.signal('SIGKILL'), graceMs);
    await this.exited;
    clearTimeout(timer);
    // Whatever the command left behind in its group.
    this.signal('SIGKILL');
  }

  async restart(): Promise<void> {
    this.kill();
    await this.exited;
    this.start();
  }

  private signal(sig: NodeJS.Signals): void {
    const pid = this.child?.pid;
    if (pid === undefined) return;
    try {
      process.kill(-pid, sig);
    } catch {
      // the group is gone already
    }
  }
}
