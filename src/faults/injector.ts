/**
 * The faults of one running mode: the rules in order, the journal, and `plan()`, which each mode
 * calls once per request before answering it.
 *
 *   const faults = await FaultInjector.create(options.faults, { mode: 'serve', log });
 *   faults.mount(admin);
 *   …
 *   const plan = faults.plan(req, { info });
 *   if (await applyPlan(res, plan)) return;          // delay, injected Status or reset
 *   const guard = new WatchStreamGuard(plan, contentType); // per watch frame: beforeFrame, afterFrame
 */
import type { IncomingMessage } from 'node:http';
import { UsageError } from '../errors/usage-error';
import { noteAccess } from '../http/access-log';
import type { AdminApi } from '../http/admin';
import type { RequestInfo } from '../k8s/request-info';
import { silentLogger, type Logger } from '../log/logger';
import type { ActionType, FaultMode, FaultRuleDefinition } from './definition';
import { faultRequest, type FaultRequest } from './fault-request';
import { FaultConfigError, checkKeys, isObject } from './fields';
import { mountFaultsAdmin } from './admin-routes';
import { FaultJournal, type FaultJournalEntry } from './fault-journal';
import { loadFaultsFile } from './load';
import { emptyPlan, replacesResponse, type FaultPlan } from './plan';
import { FaultRule, type RuleStatus } from './rule';

/** What a mode's `faults` option may be: a rules file path, rule data, or an injector to share. */
export type FaultsOption = string | FaultRuleDefinition[] | { faults: FaultRuleDefinition[] } | FaultInjector;

export interface FaultInjectorOptions {
  mode: FaultMode;
  log?: Logger;
  /** ms since the epoch; journal times come from it. */
  now?: () => number;
}

export interface PlanOptions {
  /** The request info when the mode has parsed the URL already. */
  info?: RequestInfo;
  /** The current resourceVersion, when the mode knows it (`too-large-rv` quotes it). */
  currentRv?: () => string | undefined;
}

export class FaultInjector {
  readonly mode: FaultMode;
  private rules: FaultRule[] = [];
  private readonly log: Logger;
  private readonly faultJournal: FaultJournal;
  private added = 0;

  constructor(options: FaultInjectorOptions) {
    this.mode = options.mode;
    this.log = (options.log ?? silentLogger()).child({ component: 'faults' });
    this.faultJournal = new FaultJournal(options.now ?? Date.now);
  }

  /** An injector for a mode's `faults` option; a file is read and validated here (bad file → UsageError). */
  static async create(option: FaultsOption | undefined, options: FaultInjectorOptions): Promise<FaultInjector> {
    if (option instanceof FaultInjector) return option;
    const injector = new FaultInjector(options);
    if (typeof option === 'string') {
      const raw = await loadFaultsFile(option);
      try {
        injector.add(raw, option);
      } catch (err) {
        if (err instanceof FaultConfigError) throw new UsageError(`${option}: ${err.message}`);
        throw err;
      }
    } else if (option !== undefined) {
      injector.add(option, 'faults');
    }
    return injector;
  }

  /**
   * Adds one rule, or `{ faults: [...] }`, or a list, after the current ones. All or nothing: a bad
   * rule throws a FaultConfigError naming it and its field, and none is added.
   */
  add(raw: unknown, source = 'request'): RuleStatus[] {
    const list = ruleList(raw);
    const names = new Set(this.rules.map((r) => r.name));
    const built = list.map((item, i) => {
      const rule = FaultRule.fromDefinition(item, this.mode, `rule-${this.added + i + 1}`);
      if (names.has(rule.name)) throw new FaultConfigError('name', 'another rule has this name', rule.name);
      names.add(rule.name);
      return rule;
    });
    this.added += built.length;
    this.rules.push(...built);
    for (const rule of built) this.log.info({ rule: rule.name, source }, rule.explain());
    return built.map((r) => r.status());
  }

  remove(name: string): boolean {
    const before = this.rules.length;
    this.rules = this.rules.filter((r) => r.name !== name);
    return this.rules.length < before;
  }

  /** Removes every rule; returns how many there were. */
  clear(): number {
    const n = this.rules.length;
    this.rules = [];
    return n;
  }

  list(): RuleStatus[] {
    return this.rules.map((r) => r.status());
  }

  get size(): number {
    return this.rules.length;
  }

  /** The faults applied so far, oldest first. */
  journal(): FaultJournalEntry[] {
    return this.faultJournal.list();
  }

  /**
   * Decides what the rules do to this request; call once per request, before answering. Rules
   * are tried in order; each that fires adds to the plan, and once one replaces the response
   * (a Status, a reset) the rest are not tried.
   */
  plan(req: Pick<IncomingMessage, 'method' | 'url' | 'headers'>, options: PlanOptions = {}): FaultPlan {
    const request = faultRequest(req, options.info);
    const plan = emptyPlan(request, (fault, effect) => this.note(fault.rule, fault.type, request, effect));
    for (const rule of this.rules) {
      if (replacesResponse(plan)) break;
      if (!rule.fires(request)) continue;
      const effect = rule.apply(request, plan, options.currentRv);
      this.note(rule.name, rule.action.type, request, effect);
      noteAccess(req, { fault: rule.name });
    }
    return plan;
  }

  /** Serves `/_kubetape/faults` on the mode's admin API. */
  mount(admin: AdminApi): this {
    mountFaultsAdmin(admin, this);
    return this;
  }

  private note(rule: string, action: ActionType, req: FaultRequest, effect: string): void {
    const entry = this.faultJournal.add(rule, action, req, effect);
    this.log.info({ rule, action, method: req.method, url: req.url, effect, seq: entry.seq }, 'fault applied');
  }
}

/** A rules file or POST body as a list of rule data: `{ faults: [...] }`, a list, or one rule. */
function ruleList(raw: unknown): unknown[] {
  if (raw === null || raw === undefined) throw new FaultConfigError('faults', 'is required (a list of rules)');
  if (Array.isArray(raw)) return raw;
  if (isObject(raw) && 'faults' in raw) {
    checkKeys(raw, ['faults'], '');
    if (!Array.isArray(raw.faults)) throw new FaultConfigError('faults', 'must be a list of rules');
    return raw.faults;
  }
  return [raw];
}
