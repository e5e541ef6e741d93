/**
 * A write's request body: read up to the apiserver's 3 MiB limit (413 beyond), then for
 * create/update decoded by Content-Type into an object of the URL's kind, with the apiserver's
 * 415 and 400 answers (reference/apiserver-facts-writes.md, w1-create-*).
 */
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { yaml } from '../../wire/yaml';
import { goJsonSyntaxError } from '../../k8s/go-json';
import { jsonRepeatsKeys } from '../../k8s/yaml-duplicate-keys';
import { StatusError } from '../../k8s/status';
import { badRequestMessage, entityTooLarge, unsupportedBodyType } from '../../k8s/write-status';
import { decodeEnvelope, hasMagic } from '../../wire/protobuf';
import { WireError } from '../../wire/wire-error';
import { builtinProtobuf } from '../builtin-protobuf';
import type { ServedResource } from '../served-resources';
import { goKind } from './patchers';

type Obj = Record<string, any>;

/** The kinds served in the URL's group/version (a body of another of them is a failed conversion, not an unknown kind). */
export interface KnownKinds {
  has(kind: string): boolean;
}

/** kube-apiserver's request body limit (MaxRequestBodyBytes). */
export const MAX_REQUEST_BODY_BYTES = 3 * 1024 * 1024;

/** Body media types a write is decoded from. */
export const DECODED_BODY_TYPES = ['application/json', 'application/yaml'] as const;
export const PROTOBUF_BODY_TYPE = 'application/vnd.kubernetes.protobuf';

/** How much of a request body over the limit Go's server still reads (and drops) to keep the connection (maxPostHandlerReadBytes). */
export const MAX_POST_HANDLER_READ_BYTES = 256 * 1024;

/**
 * The whole body; over `limit` bytes the 413, with or without Content-Length, as the apiserver's
 * limitedReadBody answers. What is left of the body then is read and dropped up to
 * MAX_POST_HANDLER_READ_BYTES, as Go's server does to keep the connection; beyond that the 413
 * says `Connection: close` and the connection ends after it.
 */
export function readBody(req: IncomingMessage, limit = MAX_REQUEST_BODY_BYTES): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    const close = declared - limit > MAX_POST_HANDLER_READ_BYTES;
    req.resume();
    if (close) lingerOnClose(req.socket);
    return Promise.reject(tooLarge(limit, close));
  }
  if (req.readableEnded) return Promise.resolve(Buffer.alloc(0));
  return new Promise((resolve, reject) => {
    let chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
      else if (size - limit > MAX_POST_HANDLER_READ_BYTES) {
        done();
        req.resume();
        lingerOnClose(req.socket);
        reject(tooLarge(limit, true));
      } else chunks = [];
    };
    const onEnd = (): void => {
      done();
      if (size > limit) reject(tooLarge(limit, false));
      else resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    };
    const onError = (err: Error): void => {
      done();
      reject(err);
    };
    const onClose = (): void => {
      done();
      reject(new Error('request closed before its body ended'));
    };
    const done = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

/** How long a connection closed with a request body still coming keeps reading it after the answer (Go's rstAvoidanceDelay). */
const LINGER_MS = 500;

/**
 * When the server ends `socket` after the answer, it sends its FIN and keeps reading (and
 * dropping) what the client still sends for LINGER_MS, as Go's closeWriteAndWait does: closing
 * with unread data would reset the connection, and the client would lose the answer.
 */
function lingerOnClose(socket: Socket): void {
  socket.destroySoon = function lingeringClose(this: Socket) {
    this.end();
    this.resume();
    const timer = setTimeout(() => this.destroy(), LINGER_MS);
    timer.unref();
    this.once('end', () => this.destroy());
    this.once('close', () => clearTimeout(timer));
  };
}

/** The 413; `close`: the rest of the body is not read, the connection ends after the answer. */
function tooLarge(limit: number, close: boolean): StatusError {
  const err = entityTooLarge(limit);
  return close ? new StatusError(err.status, { ...err.headers, Connection: 'close' }) : err;
}

/**
 * The body's media type, or the 415 (checked before the body is read, as the apiserver does).
 * Protobuf is taken for kinds with a built-in descriptor; for the others (custom resources) it is
 * the 415 of a resource without protobuf, which lists only JSON and YAML.
 */
export function checkBodyType(contentType: string | undefined, resource: ServedResource): string {
  const type = mediaType(contentType);
  if (type === 'application/json' || type === 'application/yaml') return type;
  const protobuf = builtinProtobuf().messageFor(resource.info) !== undefined;
  if (type === PROTOBUF_BODY_TYPE && protobuf) return type;
  throw unsupportedBodyType(protobuf ? [...DECODED_BODY_TYPES, PROTOBUF_BODY_TYPE] : DECODED_BODY_TYPES);
}

/** The media type of a Content-Type header, lowercased, parameters dropped; JSON when absent. */
export function mediaType(contentType: string | undefined): string {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  return type || 'application/json';
}

/** Objects decoded from a JSON body in which no object repeats a key. */
const withoutRepeatedKeys = new WeakSet<object>();

/** Whether `obj` was decoded (decodeObject) from a JSON body in which no object repeats a key. */
export function decodedWithoutRepeatedKeys(obj: object): boolean {
  return withoutRepeatedKeys.has(obj);
}

/**
 * The object a create or update sends, checked against the URL's kind and version: missing
 * kind/apiVersion are filled in; another kind or version is the apiserver's 400.
 */
export function decodeObject(body: Buffer, type: string, resource: ServedResource, knownKinds: KnownKinds): Obj {
  const { kind } = resource.codec.type;
  if (type === PROTOBUF_BODY_TYPE) return decodeProtobuf(body, resource, knownKinds);
  const value = type === 'application/yaml' ? parseYaml(body, kind) : parseJson(body, kind);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw unrecognized(kind, `couldn't get version/kind; json parse error: json: cannot unmarshal ${goKind(value)} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`, body);
  }
  return checkObject(value as Obj, resource, knownKinds);
}

/** kind/apiVersion against the URL's, and ObjectMeta's field types (a patched object is checked again). */
export function checkObject(obj: Obj, resource: ServedResource, knownKinds: KnownKinds): Obj {
  checkTypeMeta(obj, resource, knownKinds);
  checkMetadataShape(obj, resource.codec.type.kind);
  return obj;
}

/**
 * A k8s\0 envelope: its typeMeta checked like a JSON body's kind/apiVersion, then the typed
 * message decoded with the URL kind's descriptor into the JSON form the rest of the path takes.
 */
function decodeProtobuf(body: Buffer, resource: ServedResource, knownKinds: KnownKinds): Obj {
  const { kind } = resource.codec.type;
  if (!hasMagic(body)) throw unrecognized(kind, 'provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]', body);
  const protobuf = builtinProtobuf();
  try {
    const env = decodeEnvelope(body);
    checkTypeMeta({ kind: env.kind || undefined, apiVersion: env.apiVersion || undefined }, resource, knownKinds);
    const obj = { kind, apiVersion: resource.codec.type.apiVersion, ...protobuf.decode(protobuf.messageFor(resource.info)!, env.raw) };
    checkMetadataShape(obj, kind);
    return obj;
  } catch (err) {
    if (err instanceof WireError) throw badRequestMessage(`${kind} in version "${resource.info.version}" cannot be handled as a ${kind}: ${err.message}`);
    throw err;
  }
}

/** JSON.parse (which takes the texts Go's scanner takes), with Go's message when the text is not JSON. */
function parseJson(body: Buffer, kind: string): unknown {
  const text = body.toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    const syntax = goJsonSyntaxError(body);
    if (syntax) throw unrecognized(kind, `couldn't get version/kind; json parse error: ${syntax}`, body);
    throw err;
  }
  if (value !== null && typeof value === 'object' && !jsonRepeatsKeys(text, value)) withoutRepeatedKeys.add(value);
  return value;
}

function parseYaml(body: Buffer, kind: string): unknown {
  if (body.length === 0) throw unrecognized(kind, "couldn't get version/kind; json parse error: unexpected end of JSON input", body);
  try {
    return yaml().parse(body.toString('utf8'), { version: '1.1', uniqueKeys: false });
  } catch (err) {
    throw badRequestMessage(`error converting YAML to JSON: ${(err as Error).message.split('\n')[0]}`);
  }
}

/** transformDecodeError without a kind: `the object provided is unrecognized (must be of type K): err (summary)`. */
function unrecognized(kind: string, err: string, body: Buffer): Error {
  return badRequestMessage(`the object provided is unrecognized (must be of type ${kind}): ${err} (${summarizeData(body, 30)})`);
}

/** summarizeData: `<empty>`, the text of a `{…` body, else hex; cut at `max` bytes with ` ...`. */
export function summarizeData(data: Buffer, max: number): string {
  if (data.length === 0) return '<empty>';
  const cut = data.length > max ? data.subarray(0, max) : data;
  const text = data[0] === 0x7b ? cut.toString('utf8') : cut.toString('hex');
  return data.length > max ? `${text} ...` : text;
}

function checkTypeMeta(obj: Obj, resource: ServedResource, knownKinds: KnownKinds): void {
  const { kind, apiVersion } = resource.codec.type;
  if (obj.kind !== undefined && typeof obj.kind !== 'string') throw badRequestMessage(`${kind} in version "${resource.info.version}" cannot be handled as a ${kind}: json: cannot unmarshal ${goKind(obj.kind)} into Go struct field .kind of type string`);
  if (obj.apiVersion !== undefined && typeof obj.apiVersion !== 'string') throw badRequestMessage(`${kind} in version "${resource.info.version}" cannot be handled as a ${kind}: json: cannot unmarshal ${goKind(obj.apiVersion)} into Go struct field .apiVersion of type string`);
  const givenKind = obj.kind || kind;
  const givenVersion = obj.apiVersion || apiVersion;
  const version = givenVersion.includes('/') ? givenVersion.slice(givenVersion.indexOf('/') + 1) : givenVersion;
  const prefix = `${givenKind} in version "${version}" cannot be handled as a ${kind}: `;
  if (givenVersion !== apiVersion) {
    throw badRequestMessage(`${prefix}no kind "${givenKind}" is registered for version "${givenVersion}" in scheme "k8s.io/kubernetes/pkg/api/legacyscheme/scheme.go:30"`);
  }
  if (givenKind !== kind) {
    if (knownKinds.has(givenKind)) {
      const internalGroup = resource.info.group ? resource.info.group.split('.')[0] : 'core';
      throw badRequestMessage(`${prefix}converting (${version}.${givenKind}) to (${internalGroup}.${kind}): unknown conversion`);
    }
    throw badRequestMessage(`${prefix}no kind "${givenKind}" is registered for version "${givenVersion}" in scheme "k8s.io/kubernetes/pkg/api/legacyscheme/scheme.go:30"`);
  }
  obj.kind = kind;
  obj.apiVersion = apiVersion;
}

const META_STRINGS = ['name', 'generateName', 'namespace', 'selfLink', 'uid', 'resourceVersion'];
const META_INTS = ['generation', 'deletionGracePeriodSeconds'];
const META_STRING_MAPS = ['labels', 'annotations'];
const META_LISTS = ['ownerReferences', 'finalizers', 'managedFields'];
const META_FIELDS = [...META_STRINGS, ...META_INTS, ...META_STRING_MAPS, ...META_LISTS, 'creationTimestamp', 'deletionTimestamp'];

/** The ObjectMeta fields must have their Go types (a decode error otherwise). */
function checkMetadataShape(obj: Obj, kind: string): void {
  const fail = (value: unknown, field: string, goType: string) =>
    badRequestMessage(`${obj.kind} in version "${String(obj.apiVersion).split('/').pop()}" cannot be handled as a ${kind}: json: cannot unmarshal ${goKind(value)} into Go struct field ${field} of type ${goType}`);
  const meta = obj.metadata;
  if (meta === undefined || meta === null) {
    obj.metadata = {};
    return;
  }
  if (typeof meta !== 'object' || Array.isArray(meta)) throw fail(meta, `${kind}.metadata`, 'v1.ObjectMeta');
  for (const k of META_STRINGS) if (meta[k] !== undefined && meta[k] !== null && typeof meta[k] !== 'string') throw fail(meta[k], `ObjectMeta.metadata.${k}`, 'string');
  for (const k of META_INTS) if (meta[k] !== undefined && meta[k] !== null && !Number.isInteger(meta[k])) throw fail(meta[k], `ObjectMeta.metadata.${k}`, 'int64');
  for (const k of META_STRING_MAPS) {
    const m = meta[k];
    if (m === undefined || m === null) continue;
    if (typeof m !== 'object' || Array.isArray(m)) throw fail(m, `ObjectMeta.metadata.${k}`, 'map[string]string');
    for (const v of Object.values(m)) if (typeof v !== 'string') throw fail(v, `ObjectMeta.metadata.${k}`, 'string');
  }
  for (const k of META_LISTS) if (meta[k] !== undefined && meta[k] !== null && !Array.isArray(meta[k])) throw fail(meta[k], `ObjectMeta.metadata.${k}`, k === 'finalizers' ? '[]string' : '[]v1.' + (k === 'ownerReferences' ? 'OwnerReference' : 'ManagedFieldsEntry'));
  if (Array.isArray(meta.finalizers)) for (const f of meta.finalizers) if (typeof f !== 'string') throw fail(f, 'ObjectMeta.metadata.finalizers', 'string');
  for (const k of ['creationTimestamp', 'deletionTimestamp']) if (meta[k] !== undefined && meta[k] !== null && typeof meta[k] !== 'string') throw fail(meta[k], `ObjectMeta.metadata.${k}`, 'v1.Time');
  for (const k of META_FIELDS) if (meta[k] === null) delete meta[k];
}
