import type { SingleBar } from 'cli-progress';

/**
 * A progress bar on stderr for long work that reports `(done, total)`, or undefined when stderr
 * is not a terminal (nothing is written to a pipe or a file). Drawn at most ten times a second;
 * it stays on screen, full, once `done` reaches `total`.
 */
export function progressBar(label: string, unit: string): ((done: number, total: number) => void) | undefined {
  if (!process.stderr.isTTY) return undefined;
  let bar: SingleBar | undefined;
  return (done, total) => {
    if (!bar) {
      const { Presets, SingleBar } = require('cli-progress') as typeof import('cli-progress');
      // Work done synchronously redraws from update() once 2 × throttle (1000 / fps ms) have passed.
      bar = new SingleBar({ format: `${label} {bar} {percentage}% | {value}/{total} ${unit}`, stream: process.stderr, fps: 20, hideCursor: false }, Presets.shades_classic);
      bar.start(total, done);
    }
    bar.update(done);
    if (done >= total) bar.stop();
  };
}
