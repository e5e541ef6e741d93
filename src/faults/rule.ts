/**
 * One fault rule at run time: its definition (data, as given), the matchers and action rebuilt
 * from it, how often it fires, and its hit counts.
 */
import type { ActionContext, FaultAction } from './actions';
import { SERVE_ONLY_ACTIONS, type FaultMode, type FaultRuleDefinition } from './definition';
import type { FaultRequest } from './fault-request';
import { FaultConfigError, checkKeys, expectInteger, expectNumber, expectObject, expectString } from './fields';
import type { Matcher } from './matchers';
import type { FaultPlan } from './plan';
import { mulberry32, seedFromName, type Random } from './random';
import { buildAction, buildMatchers } from './registry';

const RULE_KEYS = ['name', 'match', 'action', 'times', 'after', 'probability', 'seed'] as const;

export interface RuleStatus {
  name: string;
  explain: string;
  definition: FaultRuleDefinition;
  /** Requests the matchers matched. */
  matched: number;
  /** Requests the action was applied to. */
  applied: number;
}

export class FaultRule {
  private matchedCount = 0;
  private eligibleCount = 0;
  private appliedCount = 0;
  /** Draws for `probability`. */
  private readonly chance: Random;
  /** Draws for the action's own choices (uniform delays), apart, so adding one does not shift the other. */
  private readonly actionRandom: Random;

  private constructor(
    readonly definition: FaultRuleDefinition,
    private readonly matchers: readonly Matcher[],
    readonly action: FaultAction,
  ) {
    const seed = definition.seed ?? seedFromName(definition.name);
    this.chance = mulberry32(seed);
    this.actionRandom = mulberry32(seed ^ 0x9e3779b9);
  }

  get name(): string {
    return this.definition.name;
  }

  /**
   * Validates rule data and builds the rule; `defaultName` names a rule without one. Throws a
   * FaultConfigError naming the rule and the field.
   */
  static fromDefinition(raw: unknown, mode: FaultMode, defaultName: string): FaultRule {
    let name = defaultName;
    try {
      const fields = expectObject(raw, '');
      if (fields.name !== undefined) name = expectString(fields.name, 'name');
      checkKeys(fields, RULE_KEYS, '');
      const action = buildAction(fields.action);
      if (SERVE_ONLY_ACTIONS.includes(action.type) && mode !== 'serve') {
        throw new FaultConfigError('action.type', `${action.type} works in serve mode only (this is ${mode} mode)`);
      }
      const matchers = buildMatchers(fields.match);
      const definition: FaultRuleDefinition = { name, action: fields.action as FaultRuleDefinition['action'] };
      if (fields.match !== undefined) definition.match = fields.match as FaultRuleDefinition['match'];
      if (fields.times !== undefined) definition.times = expectInteger(fields.times, 'times', 1);
      if (fields.after !== undefined) definition.after = expectInteger(fields.after, 'after', 0);
      if (fields.probability !== undefined) definition.probability = expectNumber(fields.probability, 'probability', 0, 1);
      if (fields.seed !== undefined) definition.seed = expectInteger(fields.seed, 'seed', 0, 0xffffffff);
      return new FaultRule(definition, matchers, action);
    } catch (err) {
      if (err instanceof FaultConfigError) throw err.inRule(name);
      throw err;
    }
  }

  /**
   * Whether the rule fires for this request, counting it: matchers, then whether the action can act
   * on it, then `after`, `times` and `probability`, in that order. Call once per request.
   */
  fires(req: FaultRequest): boolean {
    if (!this.matchers.every((m) => m.matches(req))) return false;
    this.matchedCount++;
    if (!this.action.appliesTo(req)) return false;
    this.eligibleCount++;
    const { after = 0, times, probability } = this.definition;
    if (this.eligibleCount <= after) return false;
    if (times !== undefined && this.appliedCount >= times) return false;
    if (probability !== undefined && this.chance() >= probability) return false;
    this.appliedCount++;
    return true;
  }

  apply(req: FaultRequest, plan: FaultPlan, currentRv?: () => string | undefined): string {
    const ctx: ActionContext = { rule: this.name, random: this.actionRandom, currentRv };
    plan.rules.push(this.name);
    return this.action.apply(req, plan, ctx);
  }

  /** `When the verb is list and query parameter continue is present: answer 410 … (first 1 time).` */
  explain(): string {
    const conditions = this.matchers.map((m) => m.explain());
    const when = conditions.length > 0 ? `When ${conditions.join(' and ')}` : 'For every request';
    return `${when}: ${this.action.explain()}${this.frequency()}.`;
  }

  status(): RuleStatus {
    return { name: this.name, explain: this.explain(), definition: this.definition, matched: this.matchedCount, applied: this.appliedCount };
  }

  private frequency(): string {
    const { after, times, probability, seed } = this.definition;
    const parts: string[] = [];
    if (after !== undefined) parts.push(`skipping the first ${after}`);
    if (times !== undefined) parts.push(`at most ${times} time${times === 1 ? '' : 's'}`);
    if (probability !== undefined) parts.push(`with probability ${probability}, ${seed !== undefined ? `seed ${seed}` : 'seeded from the name'}`);
    return parts.length > 0 ? ` (${parts.join(', ')})` : '';
  }
}
