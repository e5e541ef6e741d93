/**
 * Decoded protobuf messages → the JSON shape the apiserver would write (typed clients such as kubectl send
 * `application/vnd.kubernetes.protobuf` request bodies for built-in kinds).
 */
import { decodeEnveloped, PROTOBUF_KINDS } from './protobuf';
import { rfc3339, type KObject } from './objects';
import { ApiError, statusBody } from './status';

type Msg = Record<string, any>;

const time = (t?: Msg) => (t && t.seconds ? rfc3339(new Date(Number(t.seconds) * 1000)) : undefined);
const b64 = (m: Msg = {}) => Object.fromEntries(Object.entries(m).map(([k, v]) => [k, Buffer.from(v as Uint8Array).toString('base64')]));
const nonEmpty = <T>(v: T[] | undefined) => (v && v.length ? v : undefined);
const nonEmptyMap = (m?: Msg) => (m && Object.keys(m).length ? m : undefined);

function objectMeta(m: Msg = {}): KObject {
  return {
    name: m.name || undefined,
    generateName: m.generateName || undefined,
    namespace: m.namespace || undefined,
    uid: m.uid || undefined,
    resourceVersion: m.resourceVersion || undefined,
    generation: m.generation ? Number(m.generation) : undefined,
    creationTimestamp: time(m.creationTimestamp),
    deletionTimestamp: time(m.deletionTimestamp),
    labels: nonEmptyMap(m.labels),
    annotations: nonEmptyMap(m.annotations),
    ownerReferences: nonEmpty(m.ownerReferences),
    finalizers: nonEmpty(m.finalizers),
    managedFields: nonEmpty(
      (m.managedFields ?? []).map((e: Msg) => ({
        manager: e.manager, operation: e.operation, apiVersion: e.apiVersion, time: time(e.time), fieldsType: e.fieldsType,
        fieldsV1: e.fieldsV1?.Raw ? JSON.parse(Buffer.from(e.fieldsV1.Raw).toString()) : undefined,
      })),
    ),
  };
}

const BODY: Record<string, (o: Msg) => KObject> = {
  ConfigMap: (o) => ({ immutable: o.immutable, data: nonEmptyMap(o.data), binaryData: nonEmptyMap(o.binaryData && b64(o.binaryData)) }),
  Secret: (o) => ({ immutable: o.immutable, data: nonEmptyMap(o.data && b64(o.data)), stringData: nonEmptyMap(o.stringData), type: o.type || undefined }),
  Namespace: (o) => ({ spec: o.spec?.finalizers?.length ? { finalizers: o.spec.finalizers } : undefined, status: o.status?.phase ? { phase: o.status.phase } : undefined }),
};

/** Parses a `k8s\0`-enveloped request body into a JSON-shaped object; 415 for kinds the fake has no schema for. */
export function objectFromProtobuf(body: Buffer): KObject {
  let decoded: ReturnType<typeof decodeEnveloped>;
  try {
    decoded = decodeEnveloped(body);
  } catch (e) {
    throw new ApiError(statusBody(400, 'BadRequest', `the body of the request was in an unknown format - ${(e as Error).message}`));
  }
  const { apiVersion, kind, object } = decoded;
  if (!PROTOBUF_KINDS.has(kind) || !BODY[kind]) {
    throw new ApiError(statusBody(415, 'UnsupportedMediaType', `fake-apiserver: no protobuf schema for ${kind}; send JSON`));
  }
  return { kind, apiVersion, metadata: objectMeta(object.metadata), ...BODY[kind](object) };
}
