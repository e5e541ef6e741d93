/**
 * A fake kube-apiserver v1.26+ (watch cache on) for integration tests and benchmarks: the upstream behind
 * `kubetape record`. It answers as the transcripts in reference/apiserver-transcripts/ show, byte for byte where
 * they pin bytes down. Self-contained: it shares no code with src/ so that it can check it.
 */
export { FakeApiserver, startFakeApiserver } from './fake-apiserver/server';
export type { FakeApiserverOptions, RecordedRequest, ResourceName } from './fake-apiserver/server';
export type { KubeconfigOptions } from './fake-apiserver/kubeconfig';
export type { FirehoseConfig } from './fake-apiserver/context';
export type { Pem } from './fake-apiserver/certs';
export type { KObject } from './fake-apiserver/objects';
export { encodeContinue, decodeContinue } from './fake-apiserver/continue-token';
export { decodeEnveloped, decodeWatchFrames, encodeEnveloped, encodeWatchFrame, PROTOBUF_MAGIC } from './fake-apiserver/protobuf';
