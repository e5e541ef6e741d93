/**
 * The fault rule engine. A mode builds an injector from its `faults` option, mounts the admin
 * routes, plans each request, and its fault adapter lets the plan act on the response:
 *
 *   const faults = await FaultInjector.create(options.faults, { mode: 'serve', log });
 *   faults.mount(admin);
 *   const plan = faults.plan(req, { info });
 *   if (await applyPlan(res, plan)) return;
 *   const guard = new WatchStreamGuard(plan, contentType);   // watches: before/after each frame
 */
export { FaultInjector, type FaultsOption, type FaultInjectorOptions, type PlanOptions } from './injector';
export { applyPlan, injectedBy, replacesResponse, resetConnection, type FaultPlan, type StaleRead, type StreamFault } from './plan';
export { WatchStreamGuard, type FrameDecision, type StreamEnd, type StreamEndKind } from './watch-stream-guard';
export { endWatchResponse, resetAfterFlush } from './end-watch-response';
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
