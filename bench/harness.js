'use strict';
/**
 * The parent side of a benchmark script (bench/record.js, bench/replay.js): command-line
 * options, server processes started and stopped (each prints `listening PORT`, see
 * child-server.js), free ports, /proc readings of a process's CPU time and memory, and fresh
 * files in bench/out.
 */
const { spawn } = require('node:child_process');
const { mkdirSync, readFileSync, rmSync } = require('node:fs');
const { join } = require('node:path');
const net = require('node:net');

const args = process.argv.slice(2);
/** `--name VALUE`, or `def`. */
const opt = (name, def) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : def;
};
/** Whether `--name` was given. */
const flag = (name) => args.includes(`--${name}`);

/** Every child still running, so that the script can stop them all however it ends. */
const children = new Set();

/** Spawns a child and resolves `{ child, port }` once its output matches `ready` (first group: the port). */
function start(cmd, argv, { ready = /listening (\d+)/ } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    track(child);
    let out = '';
    const onData = (d) => {
      out += d;
      const m = ready.exec(out);
      if (m) {
        child.stdout.off('data', onData);
        child.stdout.resume();
        child.stderr.off('data', onErr);
        child.stderr.resume(); // logs (KUBETAPE_LOG_LEVEL=info) are drained, not kept
        resolve({ child, port: Number(m[1]) });
      }
    };
    child.stdout.on('data', onData);
    const onErr = (d) => (out += d);
    child.stderr.on('data', onErr);
    child.on('exit', (code) => reject(new Error(`${cmd} ${argv.join(' ')} exited ${code}: ${out}`)));
  });
}

function track(child) {
  children.add(child);
  child.on('exit', () => children.delete(child));
  return child;
}

function stop(child, signal = 'SIGTERM') {
  if (!child || child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill(signal);
  });
}

const stopAll = () => Promise.all([...children].map((c) => stop(c)));

function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** CPU time (user + system, s) a process has used: /proc/PID/stat utime + stime, in ticks of 10 ms; NaN once it is gone. */
function cpuSeconds(pid) {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return NaN;
  }
}

/** Resident memory (MB) of a process, NaN once it is gone. */
function rssMb(pid) {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** Where the benchmarks keep their files. */
const OUT = join(__dirname, 'out');

/** A path in bench/out with nothing at it (nor a -wal or -shm beside it). */
function freshDb(name) {
  mkdirSync(OUT, { recursive: true });
  const db = join(OUT, name);
  for (const suffix of ['', '-wal', '-shm']) rmSync(db + suffix, { force: true });
  return db;
}

module.exports = { opt, flag, children, start, track, stop, stopAll, freePort, cpuSeconds, rssMb, OUT, freshDb };
