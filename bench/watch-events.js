'use strict';
/**
 * The benchmarks' watch events: one template per encoding, pre-encoded, into which each event's
 * name, uid and resourceVersion are stamped (so producing an event costs a copy).
 * `events(template)` → `{ size, fill(buf, base, i) }`: event `i` written at `buf[base…]`.
 */
const { encodeEnvelope, encodeWatchEvent, lengthPrefix } = require('../dist/wire/protobuf');
const { ProtoWriter } = require('../dist/wire/protobuf-fields');

const NAME = 'fh-########';
const UID = '00000000-0000-4000-8000-############';
const RV = 'RRRRRRRRR';
const CREATED = '2026-01-01T00:00:00Z';

/** A ConfigMap of ~`size` bytes in namespace fh (one data entry fills it up). */
function configMap(encoding, size) {
  const make = encoding === 'protobuf'
    ? (blob) => {
      const meta = new ProtoWriter().string(1, NAME).string(3, 'fh').string(5, UID).string(6, RV);
      const entry = new ProtoWriter().string(1, 'blob').string(2, blob);
      const cm = new ProtoWriter().message(1, meta).message(2, entry).finish();
      return lengthPrefix(encodeWatchEvent('ADDED', encodeEnvelope({ apiVersion: 'v1', kind: 'ConfigMap' }, cm)));
    }
    : (blob) => Buffer.from(`${JSON.stringify({ type: 'ADDED', object: { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: NAME, namespace: 'fh', uid: UID, resourceVersion: RV, creationTimestamp: CREATED }, data: { blob } } })}\n`);
  return make('x'.repeat(Math.max(0, size - make('').length)));
}

/** A running Pod as an apiserver sends it (~3 KiB of JSON: labels, owner, managedFields, spec, status). JSON only. */
function pod() {
  const fields = { 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } }, 'f:spec': { 'f:containers': { 'k:{"name":"web"}': { '.': {}, 'f:image': {}, 'f:name': {}, 'f:ports': {} } } } };
  const object = {
    kind: 'Pod', apiVersion: 'v1',
    metadata: {
      name: NAME, generateName: 'fh-', namespace: 'fh', uid: UID, resourceVersion: RV, creationTimestamp: CREATED,
      labels: { app: 'web', 'pod-template-hash': '7d4b9c8f6d' },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-7d4b9c8f6d', uid: '3f1c2e4a-1111-4000-8000-000000000001', controller: true, blockOwnerDeletion: true }],
      managedFields: ['kube-controller-manager', 'kubelet', 'kubectl'].map((manager) => ({ manager, operation: 'Update', apiVersion: 'v1', time: CREATED, fieldsType: 'FieldsV1', fieldsV1: fields })),
    },
    spec: {
      containers: [{ name: 'web', image: 'nginx:1.27', ports: [{ containerPort: 80, protocol: 'TCP' }], resources: { requests: { cpu: '100m', memory: '128Mi' } },
        volumeMounts: [{ name: 'kube-api-access', mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', readOnly: true }], terminationMessagePath: '/dev/termination-log', imagePullPolicy: 'IfNotPresent' }],
      restartPolicy: 'Always', dnsPolicy: 'ClusterFirst', serviceAccountName: 'default', nodeName: 'node-1',
      tolerations: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }],
      volumes: [{ name: 'kube-api-access', projected: { sources: [{ serviceAccountToken: { expirationSeconds: 3607, path: 'token' } }, { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } }] } }],
    },
    status: {
      phase: 'Running', hostIP: '10.0.0.1', podIP: '10.244.1.5', startTime: CREATED,
      conditions: ['Initialized', 'Ready', 'ContainersReady', 'PodScheduled'].map((type) => ({ type, status: 'True', lastTransitionTime: CREATED })),
      containerStatuses: [{ name: 'web', ready: true, restartCount: 0, image: 'nginx:1.27', imageID: 'docker.io/library/nginx@sha256:0123456789abcdef', containerID: 'containerd://0123456789abcdef', started: true, state: { running: { startedAt: CREATED } } }],
    },
  };
  return Buffer.from(`${JSON.stringify({ type: 'MODIFIED', object })}\n`);
}

function positions(buf, mark) {
  const out = [];
  for (let at = buf.indexOf(mark); at >= 0; at = buf.indexOf(mark, at + 1)) out.push(at);
  return out;
}

function events(template) {
  const at = { name: positions(template, NAME), uid: positions(template, UID), rv: positions(template, RV) };
  return {
    size: template.length,
    fill(buf, base, i) {
      template.copy(buf, base);
      const id = String(i + 1);
      for (const a of at.name) buf.write(id.padStart(8, '0'), base + a + 3, 'latin1');
      for (const a of at.uid) buf.write(id.padStart(12, '0'), base + a + 24, 'latin1');
      for (const a of at.rv) buf.write(String(100000000 + i + 1), base + a, 'latin1');
    },
  };
}

module.exports = { configMap, pod, events };
