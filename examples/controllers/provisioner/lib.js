'use strict';
/**
 * The provisioner: for each ConfigMap `claim-X` it creates a volume (a ConfigMap labelled
 * `claim: claim-X`, annotated with the claim's uid) and then, in a second write, records the
 * volume's name on the claim (`data.volume`, `data.phase: Bound`).
 *
 * Buggy: the volume's name is generated (`generateName: claim-X-`). A crash between the two
 * writes leaves a volume no claim names; after the restart the claim still has no volume, so a
 * second one is created: two volumes for one claim.
 *
 * Fixed: the volume's name is deterministic (`claim-X-volume`); when it already exists and carries
 * the claim's uid, it is adopted instead of created again.
 */
const { WorkQueue, configMapInformer, runController, copyOf, isNotFound, isAlreadyExists } = require('../shared/operator');

const CLAIM_LABEL = 'claim';
const CLAIM_UID = 'claim-uid';

function startProvisioner({ variant, deterministicNames }) {
  runController(`provisioner-${variant}`, async ({ kc, api, namespace, log }) => {
    const volumeBody = (claim) => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        ...(deterministicNames ? { name: `${claim.metadata.name}-volume` } : { generateName: `${claim.metadata.name}-` }),
        namespace,
        labels: { [CLAIM_LABEL]: claim.metadata.name },
        annotations: { [CLAIM_UID]: claim.metadata.uid },
      },
      data: { claim: claim.metadata.name },
    });

    const provision = async (claim) => {
      const body = volumeBody(claim);
      try {
        const volume = await api.createNamespacedConfigMap({ namespace, body });
        log(`created volume ${volume.metadata.name} for ${claim.metadata.name}`);
        return volume;
      } catch (err) {
        if (!deterministicNames || !isAlreadyExists(err)) throw err;
      }
      const existing = await api.readNamespacedConfigMap({ name: body.metadata.name, namespace });
      if (existing.metadata.annotations?.[CLAIM_UID] !== claim.metadata.uid) {
        throw new Error(`volume ${body.metadata.name} exists for another ${claim.metadata.name}`);
      }
      log(`adopting volume ${existing.metadata.name} for ${claim.metadata.name}`);
      return existing;
    };

    const reconcile = async (name) => {
      const claim = cache.get(name);
      if (!claim || claim.metadata.deletionTimestamp || claim.data?.volume) return;
      const volume = await provision(claim);
      const bound = copyOf(claim);
      bound.data = { ...bound.data, volume: volume.metadata.name, phase: 'Bound' };
      log(`binding ${name} to ${volume.metadata.name}`);
      await api.replaceNamespacedConfigMap({ name, namespace, body: bound }).catch((err) => {
        if (!isNotFound(err)) throw err;
      });
    };

    const queue = new WorkQueue(reconcile, log);
    const cache = configMapInformer(
      kc,
      namespace,
      (_type, cm) => {
        if (cm.metadata.name.startsWith('claim-') && !cm.metadata.labels?.[CLAIM_LABEL]) queue.add(cm.metadata.name);
      },
      log,
    );
    await cache.start();
    return { informers: [cache], queue };
  });
}

module.exports = { startProvisioner, CLAIM_LABEL, CLAIM_UID };
