/**
 * Request matchers: one small class per condition, each with a `type` tag and an `explain()`
 * sentence. A rule matches when all its matchers do. registry.ts builds them from a rule's `match`.
 */
import { parseBool, qualifiedResource } from '../k8s/request-info';
import type { MatchVerb, ValueCondition } from './definition';
import { headerValue, type FaultRequest } from './fault-request';
import type { Pattern } from './pattern';

export interface Matcher {
  readonly type: string;
  matches(req: FaultRequest): boolean;
  /** A sentence fragment: `the verb is list`, `query parameter continue is present`. */
  explain(): string;
}

export class VerbMatcher implements Matcher {
  readonly type = 'verb';
  constructor(private readonly verbs: readonly MatchVerb[]) {}
  matches(req: FaultRequest): boolean {
    return (this.verbs as readonly string[]).includes(req.info.verb);
  }
  explain(): string {
    return `the verb is ${orList(this.verbs)}`;
  }
}

/** `configmaps`, `deployments.apps`, `pods/log`. Without a group, the resource in any group. */
export class ResourceMatcher implements Matcher {
  readonly type = 'resource';
  constructor(private readonly resources: readonly string[]) {}
  matches(req: FaultRequest): boolean {
    const { info } = req;
    if (!info.isResourceRequest) return false;
    return this.resources.some((wanted) => {
      const [resourcePart, subresource] = wanted.split('/', 2) as [string, string | undefined];
      if (subresource !== undefined && subresource !== info.subresource) return false;
      const dot = resourcePart.indexOf('.');
      if (dot < 0) return resourcePart === info.resource;
      return resourcePart === qualifiedResource(info.apiGroup, info.resource);
    });
  }
  explain(): string {
    return `the resource is ${orList(this.resources)}`;
  }
}

export class NamespaceMatcher implements Matcher {
  readonly type = 'namespace';
  constructor(private readonly patterns: readonly Pattern[]) {}
  matches(req: FaultRequest): boolean {
    return this.patterns.some((p) => p.test(req.info.namespace));
  }
  explain(): string {
    return `the namespace is ${orList(this.patterns.map((p) => p.text))}`;
  }
}

export class NameMatcher implements Matcher {
  readonly type = 'name';
  constructor(private readonly patterns: readonly Pattern[]) {}
  matches(req: FaultRequest): boolean {
    return req.info.name !== '' && this.patterns.some((p) => p.test(req.info.name));
  }
  explain(): string {
    return `the name is ${orList(this.patterns.map((p) => p.text))}`;
  }
}

export class PathMatcher implements Matcher {
  readonly type = 'path';
  constructor(private readonly pattern: Pattern) {}
  matches(req: FaultRequest): boolean {
    return this.pattern.test(req.info.path);
  }
  explain(): string {
    return `the path matches ${this.pattern.text}`;
  }
}

/** One query parameter: present, absent, or equal to a value (booleans compared the way the apiserver parses them). */
export class QueryMatcher implements Matcher {
  readonly type = 'query';
  constructor(
    private readonly param: string,
    private readonly condition: ValueCondition,
  ) {}
  matches(req: FaultRequest): boolean {
    const value = req.info.query.get(this.param);
    return valueMatches(value ?? undefined, this.condition);
  }
  explain(): string {
    return `query parameter ${this.param} ${describeCondition(this.condition)}`;
  }
}

export class HeaderMatcher implements Matcher {
  readonly type = 'headers';
  constructor(
    private readonly header: string,
    private readonly condition: ValueCondition | Pattern,
  ) {}
  matches(req: FaultRequest): boolean {
    const value = headerValue(req.headers, this.header);
    if (typeof this.condition === 'object') return value !== undefined && this.condition.test(value);
    return valueMatches(value, this.condition);
  }
  explain(): string {
    const c = this.condition;
    return `header ${this.header} ${typeof c === 'object' ? `matches ${c.text}` : describeCondition(c)}`;
  }
}

export class UserAgentMatcher implements Matcher {
  readonly type = 'userAgent';
  constructor(private readonly pattern: Pattern) {}
  matches(req: FaultRequest): boolean {
    return this.pattern.test(headerValue(req.headers, 'user-agent') ?? '');
  }
  explain(): string {
    return `the user agent matches ${this.pattern.text}`;
  }
}

function valueMatches(value: string | undefined, condition: ValueCondition): boolean {
  if (condition === 'present') return value !== undefined;
  if (condition === 'absent') return value === undefined;
  if (value === undefined) return false;
  if (typeof condition === 'boolean') return parseBool(value) === condition && (condition || isFalse(value));
  return value === String(condition);
}

/** Go's strconv.ParseBool false values: `watch: false` must not match `watch=banana`. */
function isFalse(value: string): boolean {
  return ['0', 'f', 'F', 'false', 'False', 'FALSE'].includes(value);
}

function describeCondition(condition: ValueCondition): string {
  if (condition === 'present' || condition === 'absent') return `is ${condition}`;
  return `is ${JSON.stringify(condition)}`;
}

function orList(items: readonly string[]): string {
  if (items.length === 1) return items[0]!;
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}
