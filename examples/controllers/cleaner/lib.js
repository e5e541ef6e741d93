'use strict';
/**
 * The cleaner: a ConfigMap `parent-X` owns the ConfigMaps `child-*` labelled `parent: parent-X`
 * (a label, not an ownerReference, so the garbage collector leaves them to us). The cleaner puts
 * its finalizer on each parent, adopts each child (annotation `parent-uid`, label `adopted`), and
 * when it sees a parent being deleted it deletes the parent's children, then removes the finalizer.
 *
 * `checkOwner` is the difference between the variants. Without it (buggy) the cleaner deletes
 * every child it sees labelled with the parent's name: from a stale view in which an earlier
 * `parent-X` is being deleted, it deletes the child of the `parent-X` that exists now. With it
 * (fixed) it deletes only children adopted by the uid of the parent being deleted, and deletes
 * with `preconditions.uid`, so a child that is not the one it saw is left alone.
 */
const { WorkQueue, configMapInformer, runController, copyOf, isNotFound, isConflict } = require('../shared/operator');

const FINALIZER = 'cleaner.example.kubetape.io/children';
const PARENT_LABEL = 'parent';
const ADOPTED_LABEL = 'adopted';
const PARENT_UID = 'parent-uid';

function startCleaner({ variant, checkOwner }) {
  runController(`cleaner-${variant}`, async ({ kc, api, namespace, log }) => {
    const childrenOf = (parentName) =>
      cache.list().filter((cm) => cm.metadata.name.startsWith('child-') && cm.metadata.labels?.[PARENT_LABEL] === parentName);

    const replace = (obj) => api.replaceNamespacedConfigMap({ name: obj.metadata.name, namespace, body: obj });

    const deleteChild = async (parent, child) => {
      const name = child.metadata.name;
      if (!checkOwner) {
        log(`deleting ${name} (its parent ${parent.metadata.name} is being deleted)`);
        await api.deleteNamespacedConfigMap({ name, namespace }).catch((err) => {
          if (!isNotFound(err)) throw err;
        });
        return;
      }
      if (child.metadata.annotations?.[PARENT_UID] !== parent.metadata.uid) {
        log(`keeping ${name}: not adopted by parent uid ${parent.metadata.uid}`);
        return;
      }
      log(`deleting ${name} uid ${child.metadata.uid} (its parent ${parent.metadata.name} uid ${parent.metadata.uid} is being deleted)`);
      try {
        await api.deleteNamespacedConfigMap({ name, namespace, body: { preconditions: { uid: child.metadata.uid } } });
      } catch (err) {
        if (isNotFound(err)) return;
        if (isConflict(err)) {
          log(`keeping ${name}: it is no longer uid ${child.metadata.uid}`);
          return;
        }
        throw err;
      }
    };

    const reconcile = async (parentName) => {
      const parent = cache.get(parentName);
      if (!parent) return; // the finalizer made sure the deletion was seen while the parent existed
      const finalizers = parent.metadata.finalizers || [];
      if (parent.metadata.deletionTimestamp) {
        if (!finalizers.includes(FINALIZER)) return;
        for (const child of childrenOf(parentName)) await deleteChild(parent, child);
        const released = copyOf(parent);
        released.metadata.finalizers = finalizers.filter((f) => f !== FINALIZER);
        log(`removing the finalizer of ${parentName}`);
        await replace(released).catch((err) => {
          if (!isNotFound(err)) throw err;
        });
        return;
      }
      let current = parent;
      if (!finalizers.includes(FINALIZER)) {
        const held = copyOf(parent);
        held.metadata.finalizers = [...finalizers, FINALIZER];
        log(`adding the finalizer to ${parentName}`);
        current = await replace(held);
      }
      for (const child of childrenOf(parentName)) {
        if (child.metadata.annotations?.[PARENT_UID] === current.metadata.uid) continue;
        const adopted = copyOf(child);
        adopted.metadata.annotations = { ...adopted.metadata.annotations, [PARENT_UID]: current.metadata.uid };
        adopted.metadata.labels = { ...adopted.metadata.labels, [ADOPTED_LABEL]: 'true' };
        log(`adopting ${child.metadata.name} for ${parentName} uid ${current.metadata.uid}`);
        await replace(adopted);
      }
    };

    const queue = new WorkQueue(async (parentName) => {
      try {
        await reconcile(parentName);
      } catch (err) {
        if (isNotFound(err)) return; // what we wrote to is gone; its deletion brings a new event
        throw err;
      }
    }, log);
    const cache = configMapInformer(
      kc,
      namespace,
      (_type, cm) => {
        const name = cm.metadata.name;
        if (name.startsWith('parent-')) queue.add(name);
        else if (name.startsWith('child-') && cm.metadata.labels?.[PARENT_LABEL]) queue.add(cm.metadata.labels[PARENT_LABEL]);
      },
      log,
    );
    await cache.start();
    return { informers: [cache], queue };
  });
}

module.exports = { startCleaner, FINALIZER, PARENT_LABEL, ADOPTED_LABEL, PARENT_UID };
