/** What every write handler derives from the request: the target, the actor, the served kinds. */
import { managerName } from '../../k8s/write-options';
import { notFound } from '../../k8s/status';
import { namespaceTerminating } from '../../k8s/write-status';
import type { ResourceRequest } from '../resource-request';
import type { Actor, WriteTarget } from './prepare';
import { resourceRules } from './resource-rules';
import { serviceAllocations } from './service-allocations';
import type { WriteDeps } from './write-deps';
import { objectOf } from './written-object';

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

/** Kinds served in the URL's group/version (a body of another of them is a failed conversion, not an unknown kind). */
export function servedKinds(ctx: ResourceRequest, deps: WriteDeps): Set<string> {
  const { group, version } = ctx.resource.info;
  return new Set(deps.resources.all().filter((r) => r.info.group === group && r.info.version === version).map((r) => r.codec.type.kind));
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
  const obj = objectOf(found.value, namespaces!.codec.type);
  if (obj.metadata?.deletionTimestamp || obj.status?.phase === 'Terminating') {
    throw namespaceTerminating(ctx.resource.info.resource, ctx.resource.info.group, name, ns);
  }
}
