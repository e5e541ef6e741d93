/**
 * A k8s\0-enveloped protobuf object as a person reads it: every field decoded to the object's
 * JSON form (kind, metadata, spec, status, data …) through the field numbers the package ships
 * (data/builtin-api/protobuf.json.gz, read on first use) and src/wire's transcoder; kinds without
 * a descriptor (custom resources, newer kinds) as their kind and metadata.
 */
import { decodeEnvelope, readObjectMeta, readStatus } from '../wire';
import type { ProtobufSchema } from '../wire/protobuf-schema';
import { protobufToJson } from '../wire/protobuf-to-json';
import { shippedProtobufSchema } from '../wire/shipped-protobuf-schema';

/** The shipped descriptors, or null when the package's data cannot be read (objects then show kind and metadata only). */
function schema(): ProtobufSchema | null {
  try {
    return shippedProtobufSchema();
  } catch {
    return null;
  }
}

export function protobufObject(envelope: Buffer): unknown {
  const e = decodeEnvelope(envelope);
  if (e.kind === 'Status') return readStatus(e.raw);
  const slash = e.apiVersion.indexOf('/');
  const [group, version] = slash < 0 ? ['', e.apiVersion] : [e.apiVersion.slice(0, slash), e.apiVersion.slice(slash + 1)];
  const s = schema();
  const message = s?.kindMessage(group, version, e.kind);
  if (s && message) {
    try {
      return { kind: e.kind, apiVersion: e.apiVersion, ...protobufToJson(s, message, e.raw) };
    } catch (err) {
      return { apiVersion: e.apiVersion, kind: e.kind, metadata: readObjectMeta(e.raw), '(protobuf)': `${e.raw.length} bytes; fields beyond metadata could not be decoded: ${(err as Error).message}` };
    }
  }
  return { apiVersion: e.apiVersion, kind: e.kind, metadata: readObjectMeta(e.raw), '(protobuf)': `${e.raw.length} bytes; no descriptor for ${e.apiVersion} ${e.kind}: fields beyond metadata not decoded` };
}
