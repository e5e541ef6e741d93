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
