/** What every write handler derives from the request: the target, the actor, the served kinds. */
import { managerName } from '../../k8s/write-options';
import { notFound } from '../../k8s/status';
import { namespaceTerminating } from '../../k8s/write-status';
import type { ResourceRequest } from '../resource-request';
import type { KnownKinds } from './request-body';
import type { Actor, WriteTarget } from './prepare';
import { resourceRules } from './resource-rules';
import { serviceAllocations } from './service-allocations';
import type { WriteDeps } from './write-deps';

export function writeTarget(ctx: ResourceRequest): WriteTarget {
  const { resource, info } = ctx;
  const rules = resourceRules(resource.info.group, resource.info.resource, !resource.info.unstructured);
  if (resource.custom) rules.hasStatus = resource.custom.status;
  return { resource, rules, namespace: info.namespace };
}

export function actor(ctx: ResourceRequest, deps: WriteDeps, fieldManager: string | undefined): Actor {
  const ua = ctx.req.headers['user-agent'];
  return { manager: managerName(fieldManager, ua), now: deps.now(), random: deps.random, allocations: () => serviceAllocations(deps) };
}

/**
 * Kinds served in the URL's group/version (a body of another of them is a failed conversion, not
 * an unknown kind), listed when first asked: only a body of another kind asks.
 */
export function servedKinds(ctx: ResourceRequest, deps: WriteDeps): KnownKinds {
  const { group, version } = ctx.resource.info;
  let kinds: Set<string> | undefined;
  return {
    has: (kind) => (kinds ??= new Set(deps.resources.all().filter((r) => r.info.group === group && r.info.version === version).map((r) => r.codec.type.kind))).has(kind),
  };
}

/**
 * NamespaceLifecycle admission for a create: the namespace must exist (a Namespace object in the
 * store) and not be terminating.
 */
export function admitNamespace(ctx: ResourceRequest, deps: WriteDeps, name: string): void {
  if (!ctx.resource.namespaced) return;
  const ns = ctx.info.namespace;
  const namespaces = deps.resources.find('', 'v1', 'namespaces');
  const found = namespaces?.store.get(ns, deps.store.head);
  if (!found) throw notFound('namespaces', ns);
  // Read through the stored state's own caches: a create reads the same Namespace each time.
  if (found.value.metadata().deletionTimestamp || found.value.field('status.phase') === 'Terminating') {
    throw namespaceTerminating(ctx.resource.info.resource, ctx.resource.info.group, name, ns);
  }
}
