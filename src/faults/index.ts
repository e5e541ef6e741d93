/**
 * Fault injection for every mode. A mode builds an injector from its `faults` option, mounts
 * the admin routes, plans each request, and lets the plan act on the response:
 *
 *   const faults = await FaultInjector.create(options.faults, { mode: 'serve', log });
 *   faults.mount(admin);
 *   const plan = faults.plan(req, { info });
 *   if (await applyPlan(res, plan)) return;
 *   const out = watchWriter(res, plan, { contentType });   // watches: out.write(frame, rv)
 */
export { FaultInjector, type FaultsOption, type FaultInjectorOptions, type PlanOptions } from './injector';
export { applyPlan, injectedBy, replacesResponse, resetConnection, type FaultPlan, type StaleRead, type StreamFault } from './plan';
export { WatchStreamGuard, type FrameDecision, type StreamEnd, type StreamEndKind } from './watch-stream-guard';
export { WatchWriter, watchWriter, endWatchResponse, type WatchWriterOptions } from './watch-writer';
export { goneStatus } from './gone-status';
export { FaultConfigError } from './fields';
export type { FaultJournalEntry } from './fault-journal';
export type { RuleStatus } from './rule';
export {
  ACTION_TYPES,
  FAULT_MODES,
  MATCH_VERBS,
  SERVE_ONLY_ACTIONS,
  type ActionDefinition,
  type ActionType,
  type FaultMode,
  type FaultRuleDefinition,
  type FaultsFile,
  type MatchDefinition,
} from './definition';
