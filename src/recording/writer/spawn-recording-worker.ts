import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';

/**
 * Starts `src/recording/writer/NAME` on a worker thread. The built package runs `NAME.js` beside this
 * file. From TypeScript sources (jest runs TS through @swc/jest, so there is no .js) the thread
 * starts from a small bootstrap that compiles each required .ts file with @swc/core, a
 * devDependency, as it is loaded.
 */
export function spawnRecordingWorker(name: string, workerData: object): Worker {
  const js = join(__dirname, `${name}.js`);
  if (existsSync(js)) return new Worker(js, { workerData });
  const ts = join(__dirname, `${name}.ts`);
  let swcPath: string;
  try {
    swcPath = require.resolve('@swc/core');
  } catch {
    throw new Error(`cannot start the ${name} thread: ${js} is missing (run npm run build) and @swc/core is not installed`);
  }
  return new Worker(TS_BOOTSTRAP, { eval: true, workerData: { ...workerData, entry: ts, swcPath } });
}

const TS_BOOTSTRAP = `
const { workerData } = require('node:worker_threads');
const fs = require('node:fs');
const swc = require(workerData.swcPath);
require.extensions['.ts'] = function (module, filename) {
  const out = swc.transformSync(fs.readFileSync(filename, 'utf8'), {
    filename,
    jsc: { target: 'es2022', parser: { syntax: 'typescript' } },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  });
  module._compile(out.code, filename);
};
require(workerData.entry);
`;
