'use strict';
/**
 * What the three example controllers share, written as a small operator runtime on
 * @kubernetes/client-node: the kubeconfig from $KUBECONFIG, one informer per namespace (restarted
 * after a watch or list error), a work queue that runs one item at a time and retries failed items
 * with backoff (a 409 Conflict is the usual reason), status-code helpers, and a clean exit on
 * SIGTERM/SIGINT. Logs go to stderr, one line each, prefixed with the controller's name.
 */
const k8s = require('@kubernetes/client-node');

const NAMESPACE = process.env.NAMESPACE || 'demo';

/**
 * The kubeconfig named by $KUBECONFIG. client-node refuses an http:// server unless the cluster
 * says insecure-skip-tls-verify, so a plain-http cluster (a local `kubetape serve`) is marked so.
 */
function loadKubeConfig() {
  const kc = new k8s.KubeConfig();
  kc.loadFromDefault();
  const clusters = kc.clusters.map((c) => (c.server.startsWith('http:') ? { ...c, skipTLSVerify: true } : c));
  kc.loadFromOptions({ clusters, users: kc.users, contexts: kc.contexts, currentContext: kc.currentContext });
  return kc;
}

function logger(name) {
  return (message) => process.stderr.write(`${name}: ${message}\n`);
}

/** The HTTP status of a failed client-node call (ApiException.code), or undefined. */
function statusCode(err) {
  return err && typeof err.code === 'number' ? err.code : undefined;
}

/** The Status `reason` of a failed call (`AlreadyExists`, `Conflict`, …), or undefined. */
function statusReason(err) {
  let body = err && err.body;
  if (typeof body === 'string') {
    try {
      body = JSON.parse(body);
    } catch {
      return undefined;
    }
  }
  return body && typeof body === 'object' ? body.reason : undefined;
}

const isNotFound = (err) => statusCode(err) === 404;
const isConflict = (err) => statusCode(err) === 409 && statusReason(err) !== 'AlreadyExists';
const isAlreadyExists = (err) => statusCode(err) === 409 && statusReason(err) === 'AlreadyExists';

/**
 * Runs `handle(item)` for one item at a time, in the order items were added; an item already
 * waiting is not added twice. Nothing runs before `start()` (called once the informers have
 * listed, as client-go's workers wait for the caches to sync). A failed item is retried with exponential backoff (50 ms doubling to
 * 2 s, at most `maxRetries` times), as client-go's rate-limited queue does.
 */
class WorkQueue {
  constructor(handle, log, maxRetries = 12) {
    this.handle = handle;
    this.log = log;
    this.maxRetries = maxRetries;
    this.waiting = [];
    this.queued = new Set();
    this.failures = new Map();
    this.timers = new Set();
    this.running = false;
    this.started = false;
    this.stopped = false;
    this.idle = Promise.resolve();
  }

  start() {
    this.started = true;
    if (!this.running) this.idle = this.drain();
  }

  add(item) {
    if (this.stopped || this.queued.has(item)) return;
    this.queued.add(item);
    this.waiting.push(item);
    if (this.started && !this.running) this.idle = this.drain();
  }

  async drain() {
    this.running = true;
    while (this.waiting.length > 0 && !this.stopped) {
      const item = this.waiting.shift();
      this.queued.delete(item);
      try {
        await this.handle(item);
        this.failures.delete(item);
      } catch (err) {
        this.retryLater(item, err);
      }
    }
    this.running = false;
  }

  retryLater(item, err) {
    const failures = (this.failures.get(item) || 0) + 1;
    const reason = statusCode(err) ? `${statusCode(err)} ${statusReason(err) || ''}`.trim() : err && err.message;
    if (failures > this.maxRetries) {
      this.failures.delete(item);
      this.log(`${item}: giving up after ${failures - 1} retries (${reason})`);
      return;
    }
    this.failures.set(item, failures);
    const delay = Math.min(2000, 50 * 2 ** (failures - 1));
    this.log(`${item}: retry in ${delay} ms (${reason})`);
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.add(item);
    }, delay);
    this.timers.add(timer);
  }

  async stop() {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    await this.idle;
  }
}

/**
 * An informer on the ConfigMaps of `namespace` (not started: call `start()`); `onEvent(type, obj)`
 * for each add, update and delete. After an error (a failed list or watch) it starts again half a
 * second later, so a relist follows any broken watch.
 */
function configMapInformer(kc, namespace, onEvent, log) {
  const api = kc.makeApiClient(k8s.CoreV1Api);
  const informer = k8s.makeInformer(kc, `/api/v1/namespaces/${namespace}/configmaps`, () => api.listNamespacedConfigMap({ namespace }));
  let stopped = false;
  for (const type of ['add', 'update', 'delete']) informer.on(type, (obj) => onEvent(type, obj));
  informer.on('error', (err) => {
    if (stopped) return;
    log(`watch error (${statusCode(err) || (err && err.message)}); restarting the informer`);
    setTimeout(() => {
      if (!stopped) informer.start().catch(() => undefined);
    }, 500);
  });
  return {
    start: () => informer.start(),
    get: (name) => informer.get(name, namespace),
    list: () => informer.list(namespace),
    stop: async () => {
      stopped = true;
      await informer.stop();
    },
  };
}

/**
 * Starts a controller: `setup({ kc, api, namespace, log })` starts its informers and returns
 * `{ informers, queue }`; the queue is started then, and both are stopped on SIGTERM/SIGINT,
 * after which the process exits with 0.
 */
function runController(name, setup) {
  const log = logger(name);
  const kc = loadKubeConfig();
  const api = kc.makeApiClient(k8s.CoreV1Api);
  let running;
  const shutdown = async (signal) => {
    log(`${signal}: stopping`);
    try {
      const { informers, queue } = await running;
      await Promise.all(informers.map((i) => i.stop()));
      // the item in hand may wait on a slow server: give it a second, no more
      await Promise.race([queue.stop(), new Promise((r) => setTimeout(r, 1000))]);
    } finally {
      process.exit(0);
    }
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
  running = setup({ kc, api, namespace: NAMESPACE, log });
  running.then(
    ({ queue }) => {
      queue.start();
      log(`watching configmaps in namespace ${NAMESPACE}`);
    },
    (err) => {
      log(`failed to start: ${err && err.message}`);
      process.exit(1);
    },
  );
}

/** A deep copy of a ConfigMap from the cache, ready to be sent back with changes. */
function copyOf(obj) {
  return structuredClone(obj);
}

module.exports = {
  k8s,
  WorkQueue,
  configMapInformer,
  runController,
  copyOf,
  statusCode,
  isNotFound,
  isConflict,
  isAlreadyExists,
};
