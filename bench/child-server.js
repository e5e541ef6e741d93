'use strict';
/**
 * The life of a benchmark server process: `start()` resolves with `{ port, close() }`; prints
 * `listening PORT` for the parent (bench/record.js, bench/replay.js), closes on SIGTERM/SIGINT,
 * exits 1 with the stack if starting fails.
 */
module.exports = function runServer(start) {
  start()
    .then(({ port, close }) => {
      process.stdout.write(`listening ${port}\n`);
      const stop = () => Promise.resolve(close()).finally(() => process.exit(0));
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
    })
    .catch((err) => {
      process.stderr.write(`${err.stack}\n`);
      process.exit(1);
    });
};

/**
 * The logger a benchmark server runs with: JSON on stderr at KUBETAPE_LOG_LEVEL, `warn` by default
 * (no access log, as one benchmarks); `KUBETAPE_LOG_LEVEL=info` measures the access log's cost.
 */
module.exports.benchLogger = function benchLogger() {
  const { createLogger } = require('../dist/log/logger');
  return createLogger({ level: process.env.KUBETAPE_LOG_LEVEL || 'warn', pretty: false });
};
