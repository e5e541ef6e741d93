/**
 * A fake kube-apiserver v1.26+ (watch cache on) for integration tests and benchmarks: the upstream behind
 * `kubetape record`. It answers as reference/apiserver-transcripts/ show, byte for byte where they pin bytes down
 * (see fake-apiserver*.test.ts). Self-contained: it shares no code with src/, so that it can check it.
 *
 *   const api = await startFakeApiserver({ tls: true, token: 't' });   // 127.0.0.1:0, kubeconfig written
 *   api.seedConfigMaps('tx', 30);                      // cm-01..cm-30, one revision each
 *   api.create('secrets', 'tx', { metadata: { name: 's' }, stringData: { a: 'b' } });
 *   api.patchData('configmaps', 'tx', 'cm-01', { k: 'x' });   // MODIFIED event, RV + 1
 *   api.compact();                                     // older continue tokens → 410, older watches → ERROR 410
 *   api.streamWatchEvents(200_000, { sizeBytes: 1024 });        // GET the returned path: a firehose watch
 *   execFile('kubectl', ['--kubeconfig', api.kubeconfigPath, 'get', 'cm', '-n', 'tx']);
 *   api.intercept((req, res) => req.url === '/x' && (res.end('cut'), true));   // a test's own answer
 *   api.requests;                                      // what clients sent (method, url, headers, clientCN)
 *   await api.close();
 *
 * Resources: configmaps, secrets, namespaces (cluster), pods (JSON only: no protobuf schema), widgets.example.com/v1
 * (CRD-like: keys sorted, no protobuf). Namespaces default, kube-system, kube-public, kube-node-lease exist;
 * api.create() creates a missing namespace, an HTTP create into one answers 404 like the apiserver.
 */
export { FakeApiserver, startFakeApiserver } from './fake-apiserver/server';
export type { FakeApiserverOptions, Intercept, RecordedRequest, ResourceName } from './fake-apiserver/server';
export type { KubeconfigOptions } from './fake-apiserver/kubeconfig';
export type { FirehoseConfig } from './fake-apiserver/context';
export type { Pem } from './fake-apiserver/certs';
export type { KObject } from './fake-apiserver/objects';
export { encodeContinue, decodeContinue } from './fake-apiserver/continue-token';
export { decodeEnveloped, decodeWatchFrames, encodeEnveloped, encodeWatchFrame, PROTOBUF_MAGIC } from './fake-apiserver/protobuf';
export { objectFromProtobuf } from './fake-apiserver/protobuf-json';
