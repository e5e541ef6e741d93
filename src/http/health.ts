/**
 * `/healthz`, `/livez`, `/readyz` as a healthy kube-apiserver v1.26 (default flags) answers them
 * (k8s.io/apiserver pkg/server/healthz): `ok`, or with `?verbose` one `[+]<check> ok` line per
 * check and `<livez|readyz|healthz> check passed`; `?exclude=<check>` (repeatable) turns a check's
 * line into `[+]<check> excluded: ok` and names the ones that match nothing in a `warn:` line.
 * Each check also has its own path, `/livez/ping`, `/readyz/poststarthook/rbac/bootstrap-roles` …,
 * answering `ok`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** The checks all three endpoints list: ping, log, etcd, then the post-start hooks in the order v1.26 registers them. */
const COMMON = [
  'ping',
  'log',
  'etcd',
  ...[
    'start-kube-apiserver-admission-initializer',
    'generic-apiserver-start-informers',
    'priority-and-fairness-config-consumer',
    'priority-and-fairness-filter',
    'storage-object-count-tracker-hook',
    'start-apiextensions-informers',
    'start-apiextensions-controllers',
    'crd-informer-synced',
    'bootstrap-controller',
    'rbac/bootstrap-roles',
    'scheduling/bootstrap-system-priority-classes',
    'priority-and-fairness-config-producer',
    'start-cluster-authentication-info-controller',
    'start-kube-apiserver-identity-lease-controller',
    'start-kube-apiserver-identity-lease-garbage-collector',
    'aggregator-reload-proxy-client-cert',
    'start-kube-aggregator-informers',
    'apiservice-registration-controller',
    'apiservice-status-available-controller',
    'kube-apiserver-autoregistration',
  ].map((hook) => `poststarthook/${hook}`),
  'autoregister-completion',
  'poststarthook/apiservice-openapi-controller',
  'poststarthook/apiservice-openapiv3-controller',
];

const READYZ = [...COMMON.slice(0, 3), 'etcd-readiness', 'informer-sync', ...COMMON.slice(3), 'shutdown'];

const HEALTH_CHECKS: Readonly<Record<string, readonly string[]>> = { healthz: COMMON, livez: COMMON, readyz: READYZ };

/** The health endpoint `url` names (`healthz`, `livez`, `readyz`), its checks, and the one check it asks for; undefined for any other path. */
function healthTarget(url: string): { name: string; checks: readonly string[]; check?: string; query: string } | undefined {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  if (!path.startsWith('/')) return undefined;
  const slash = path.indexOf('/', 1);
  const name = path.slice(1, slash < 0 ? undefined : slash);
  const checks = Object.hasOwn(HEALTH_CHECKS, name) ? HEALTH_CHECKS[name] : undefined;
  if (!checks) return undefined;
  const query = q < 0 ? '' : url.slice(q + 1);
  if (slash < 0) return { name, checks, query };
  const check = path.slice(slash + 1);
  return checks.includes(check) ? { name, checks, check, query } : undefined;
}

/** Whether `url` is a health path kubetape answers itself (an endpoint or one of its checks). */
export function isHealthPath(url: string): boolean {
  return healthTarget(url) !== undefined;
}

/** Answers a health path (an endpoint or one of its checks); returns whether it did. */
export function answerHealth(req: IncomingMessage, res: ServerResponse): boolean {
  const target = healthTarget(req.url ?? '');
  if (!target) return false;
  if (target.check !== undefined) {
    // adaptCheckToHandler: `fmt.Fprint(w, "ok")`, its type sniffed.
    res.writeHead(200, { 'Cache-Control': 'no-cache, private', 'Content-Type': 'text/plain; charset=utf-8' });
    res.end('ok');
    return true;
  }
  res.writeHead(200, { 'Cache-Control': 'no-cache, private', 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' });
  const query = new URLSearchParams(target.query);
  res.end(query.has('verbose') ? verbose(target.name, target.checks, query.getAll('exclude')) : 'ok');
  return true;
}

/** handleRootHealth's verbose text when every check passes. */
function verbose(name: string, checks: readonly string[], exclude: string[]): string {
  const excluded = new Set(exclude);
  let out = '';
  for (const check of checks) {
    out += excluded.delete(check) ? `[+]${check} excluded: ok\n` : `[+]${check} ok\n`;
  }
  if (excluded.size > 0) {
    const names = [...excluded].sort().map((n) => JSON.stringify(n));
    out += `warn: some health checks cannot be excluded: no matches for ${names.join(',')}\n`;
  }
  return `${out}${name} check passed\n`;
}
