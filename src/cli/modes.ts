/**
 * The code behind each command, loaded when the command runs. A command's options need none of
 * it, so `kubetape serve` starts without loading record, replay, inspect, ui and explore, and
 * `kubetape --help` without any of them.
 */
export const modes = {
  record: () => require('../record') as typeof import('../record'),
  replay: () => require('../replay') as typeof import('../replay'),
  serve: () => require('../serve') as typeof import('../serve'),
  inspect: () => require('../inspect') as typeof import('../inspect'),
  ui: () => require('../ui') as typeof import('../ui'),
  explore: () => require('../explore') as typeof import('../explore'),
  logger: () => require('../log/logger') as typeof import('../log/logger'),
};
