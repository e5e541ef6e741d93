'use strict';
/**
 * The scaler: a ConfigMap `set-X` with `data.size` and `data.version` wants the ConfigMaps
 * `set-X-0` … `set-X-(size-1)`, each labelled `set: set-X`, annotated with the set's uid
 * (`set-uid`) and carrying the set's `data.version`.
 *
 * Buggy (edge-triggered): it acts on the transitions it observes. A set added: create its
 * children; its size changed from the last size seen: create or delete the difference; a set
 * deleted: delete its children (scale to zero). When a deletion and a re-creation of the set
 * coalesce (the controller never sees the DELETED, only the new set as an update of the old one),
 * the scale-down to zero is never done: the old set's children stay, with the old version.
 *
 * Fixed (level-triggered): for a set, it reads the set from the API (not the cache) and compares
 * what should exist with the children there are: children of another uid, or beyond the size, are
 * deleted (with `preconditions.uid`), missing ones created. What it did before does not matter.
 */
const { WorkQueue, configMapInformer, runController, copyOf, isNotFound, isConflict, isAlreadyExists } = require('../shared/operator');

const SET_LABEL = 'set';
const SET_UID = 'set-uid';

const isSet = (cm) => cm.metadata.name.startsWith('set-') && !cm.metadata.labels?.[SET_LABEL];
const sizeOf = (set) => Math.max(0, parseInt(set.data?.size ?? '0', 10) || 0);

function childBody(set, index, namespace) {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: `${set.metadata.name}-${index}`,
      namespace,
      labels: { [SET_LABEL]: set.metadata.name },
      annotations: { [SET_UID]: set.metadata.uid },
    },
    data: { version: set.data?.version ?? '' },
  };
}

/** Edge-triggered: each observed transition becomes a queued operation. */
function edgeTriggered({ api, namespace, log }) {
  const lastSize = new Map();
  const operations = new Map();
  let nextId = 0;

  const scale = async ({ set, from, to }) => {
    const name = set.metadata.name;
    log(`scaling ${name} from ${from} to ${to}`);
    for (let i = from - 1; i >= to; i--) {
      await api.deleteNamespacedConfigMap({ name: `${name}-${i}`, namespace }).catch((err) => {
        if (!isNotFound(err)) throw err;
      });
    }
    for (let i = from; i < to; i++) {
      await api.createNamespacedConfigMap({ namespace, body: childBody(set, i, namespace) }).catch((err) => {
        if (!isAlreadyExists(err)) throw err;
      });
    }
  };

  const queue = new WorkQueue(async (id) => {
    const operation = operations.get(id);
    await scale(operation);
    operations.delete(id);
  }, log);
  const enqueue = (operation) => {
    const id = `op-${++nextId}`;
    operations.set(id, operation);
    queue.add(id);
  };

  const onEvent = (type, cm) => {
    if (!isSet(cm)) return;
    const name = cm.metadata.name;
    if (type === 'add') {
      lastSize.set(name, sizeOf(cm));
      enqueue({ set: cm, from: 0, to: sizeOf(cm) });
    } else if (type === 'update') {
      const from = lastSize.get(name) ?? 0;
      lastSize.set(name, sizeOf(cm));
      if (from !== sizeOf(cm)) enqueue({ set: cm, from, to: sizeOf(cm) });
    } else {
      const from = lastSize.get(name) ?? sizeOf(cm);
      lastSize.delete(name);
      enqueue({ set: cm, from, to: 0 });
    }
  };
  return { queue, onEvent };
}

/** Level-triggered: a set's name is queued; the reconcile compares desired and actual children. */
function levelTriggered({ api, namespace, log }, cache) {
  const deleteChild = async (child, why) => {
    log(`deleting ${child.metadata.name} (${why})`);
    await api.deleteNamespacedConfigMap({ name: child.metadata.name, namespace, body: { preconditions: { uid: child.metadata.uid } } }).catch((err) => {
      if (!isNotFound(err) && !isConflict(err)) throw err;
    });
  };

  const reconcile = async (name) => {
    const set = await api.readNamespacedConfigMap({ name, namespace }).catch((err) => {
      if (isNotFound(err)) return undefined;
      throw err;
    });
    const children = cache.list().filter((cm) => cm.metadata.labels?.[SET_LABEL] === name);
    const size = set ? sizeOf(set) : 0;
    const kept = new Map();
    for (const child of children) {
      const index = Number(child.metadata.name.slice(name.length + 1));
      if (!set) await deleteChild(child, `${name} is gone`);
      else if (child.metadata.annotations?.[SET_UID] !== set.metadata.uid) await deleteChild(child, `it belongs to an earlier ${name}`);
      else if (!(index >= 0 && index < size)) await deleteChild(child, `${name} has size ${size}`);
      else kept.set(child.metadata.name, child);
    }
    if (!set) return;
    for (let i = 0; i < size; i++) {
      const wanted = childBody(set, i, namespace);
      const child = kept.get(wanted.metadata.name);
      if (!child) {
        log(`creating ${wanted.metadata.name}`);
        await api.createNamespacedConfigMap({ namespace, body: wanted }).catch(async (err) => {
          if (!isAlreadyExists(err)) throw err;
          const existing = await api.readNamespacedConfigMap({ name: wanted.metadata.name, namespace });
          // our own child, not yet in the cache: fine; another set's: retry once the cache has it
          if (existing.metadata.annotations?.[SET_UID] !== set.metadata.uid) throw err;
        });
      } else if (child.data?.version !== wanted.data.version) {
        const updated = copyOf(child);
        updated.data = { ...updated.data, version: wanted.data.version };
        log(`updating ${wanted.metadata.name} to version ${wanted.data.version}`);
        await api.replaceNamespacedConfigMap({ name: wanted.metadata.name, namespace, body: updated });
      }
    }
  };

  const queue = new WorkQueue(reconcile, log);
  const onEvent = (_type, cm) => {
    if (isSet(cm)) queue.add(cm.metadata.name);
    else if (cm.metadata.labels?.[SET_LABEL]) queue.add(cm.metadata.labels[SET_LABEL]);
  };
  return { queue, onEvent };
}

function startScaler({ variant, levelTriggered: level }) {
  runController(`scaler-${variant}`, async (ctx) => {
    let handler;
    const informer = configMapInformer(ctx.kc, ctx.namespace, (type, cm) => handler.onEvent(type, cm), ctx.log);
    handler = level ? levelTriggered(ctx, informer) : edgeTriggered(ctx);
    const { queue } = handler;
    await informer.start();
    return { informers: [informer], queue };
  });
}

module.exports = { startScaler, SET_LABEL, SET_UID };
