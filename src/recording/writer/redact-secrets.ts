/**
 * Credentials never reach the recording unless asked (`--keep-secrets`). In a Secret (JSON, YAML or
 * protobuf, alone, in a list, a Table row or a watch event, or a patch sent to `secrets`) every
 * `data` value becomes base64("[redacted]"), every `stringData` value "[redacted]", and the
 * `kubectl.kubernetes.io/last-applied-configuration` annotation (which repeats the data) too; in a
 * TokenRequest (`serviceaccounts/NAME/token`) `status.token`, in a TokenReview `spec.token`.
 * Keys, metadata and everything else stay, so a replayed client still sees which keys exist.
 * The functions return the rewritten bytes, or null when there was nothing to redact; a body they
 * cannot parse throws Unredactable (the writer then stores its size and the reason, not the body).
 */
import { yaml } from '../../wire/yaml';
import type { RequestInfo } from '../../k8s/request-info';
import { goJson } from '../../wire/json-spans';
import { isProtobuf, isYaml } from '../../wire/media-types';
import { WIRE_BYTES, ProtoWriter, forEachField, type ProtoField } from '../../wire/protobuf-fields';
import { decodeEnvelope, decodeWatchEvent, encodeEnvelope, encodeWatchEvent, hasMagic, lengthPrefix } from '../../wire/protobuf';

export const REDACTED = '[redacted]';
export const REDACTED_BASE64 = Buffer.from(REDACTED).toString('base64');
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/** What an exchange's bodies may hold that is redacted. */
export type RedactTarget = 'secret' | 'token-request' | 'token-review';

/** A body that holds (or may hold) a credential and cannot be parsed to redact it. */
export class Unredactable extends Error {}

type Json = Record<string, unknown>;

/** Which credentials an exchange's bodies may carry, from its request; null for none. */
export function redactTarget(info: RequestInfo): RedactTarget | null {
  if (info.resource === 'secrets') return 'secret';
  if (info.resource === 'serviceaccounts' && info.subresource === 'token') return 'token-request';
  if (info.resource === 'tokenreviews') return 'token-review';
  return null;
}

/**
 * A whole body (not compressed) by its content type: protobuf, YAML, else JSON. `request`: the
 * body was sent by the client (a patch to a Secret carries no kind, and is redacted as one).
 */
export function redactBody(contentType: string | undefined, body: Buffer, target: RedactTarget, request = false): Buffer | null {
  if (isProtobuf(contentType)) return redactProtobuf(body, target);
  if (isYaml(contentType)) return redactYaml(body, target, request);
  return redactJson(body, target, request);
}

/** A JSON body or watch frame (a trailing newline is kept). */
export function redactJson(text: Buffer, target: RedactTarget = 'secret', request = false): Buffer | null {
  let value: unknown;
  try {
    value = JSON.parse(text.toString('utf8'));
  } catch (err) {
    throw new Unredactable(`not JSON: ${(err as Error).message}`);
  }
  if (!redactDocument(value, target, request)) return null;
  const newline = text.length > 0 && text[text.length - 1] === 0x0a ? '\n' : '';
  return Buffer.from(goJson(value) + newline);
}

/** A YAML body (`Accept: application/yaml`, an apply patch): rewritten as YAML when something was redacted. */
export function redactYaml(text: Buffer, target: RedactTarget, request = false): Buffer | null {
  let value: unknown;
  try {
    value = yaml().parse(text.toString('utf8'));
  } catch (err) {
    throw new Unredactable(`not YAML: ${(err as Error).message}`);
  }
  if (!redactDocument(value, target, request)) return null;
  return Buffer.from(yaml().stringify(value));
}

function redactDocument(value: unknown, target: RedactTarget, request: boolean): boolean {
  if (target === 'token-request') return redactPath(value, 'status', 'token');
  if (target === 'token-review') return redactPath(value, 'spec', 'token');
  if (request && Array.isArray(value)) return redactJsonPatch(value);
  return redactValue(value, request && isObject(value) && value.kind === undefined);
}

/** `value[outer][inner]`, a string, becomes "[redacted]". */
function redactPath(value: unknown, outer: string, inner: string): boolean {
  const parent = isObject(value) ? value[outer] : undefined;
  if (!isObject(parent) || parent[inner] === undefined) return false;
  parent[inner] = REDACTED;
  return true;
}

/** A JSON patch to a Secret: every operation's value. */
function redactJsonPatch(ops: unknown[]): boolean {
  let changed = false;
  for (const op of ops) {
    if (isObject(op) && 'value' in op) {
      op.value = REDACTED;
      changed = true;
    }
  }
  return changed;
}

/** Walks a decoded JSON document; `isSecret` says the value is known to be a Secret (a SecretList item). */
function redactValue(value: unknown, isSecret: boolean): boolean {
  if (Array.isArray(value)) return value.map((v) => redactValue(v, isSecret)).some(Boolean);
  if (!isObject(value)) return false;
  let changed = false;
  if (isSecret || value.kind === 'Secret') changed = redactSecretJson(value) || changed;
  if (Array.isArray(value.items)) changed = redactValue(value.items, value.kind === 'SecretList') || changed;
  if (Array.isArray(value.rows)) changed = redactValue(value.rows.map((r) => (isObject(r) ? r.object : undefined)), false) || changed;
  if (isObject(value.object)) changed = redactValue(value.object, false) || changed;
  return changed;
}

function redactSecretJson(secret: Json): boolean {
  let changed = false;
  for (const [field, replacement] of [['data', REDACTED_BASE64], ['stringData', REDACTED]] as const) {
    const map = secret[field];
    if (!isObject(map)) continue;
    for (const key of Object.keys(map)) {
      map[key] = replacement;
      changed = true;
    }
  }
  const annotations = isObject(secret.metadata) && isObject(secret.metadata.annotations) ? secret.metadata.annotations : undefined;
  if (annotations && LAST_APPLIED in annotations) {
    annotations[LAST_APPLIED] = REDACTED;
    changed = true;
  }
  return changed;
}

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

// ---- protobuf (schema-less: core/v1 Secret {metadata=1, data=2 map<string,bytes>, type=3, stringData=4 map<string,string>}) ----

/**
 * An enveloped protobuf body: a Secret, a SecretList, a metav1.List holding Secrets, a TokenRequest
 * (status=3 {token=1}) or a TokenReview (spec=2 {token=1}).
 */
export function redactProtobuf(body: Buffer, target: RedactTarget = 'secret'): Buffer | null {
  if (body.length === 0) return null;
  if (!hasMagic(body)) throw new Unredactable('not a Kubernetes protobuf message');
  let raw: Buffer | null;
  try {
    raw = redactEnvelope(body, target);
  } catch (err) {
    throw new Unredactable(`protobuf: ${(err as Error).message}`);
  }
  return raw;
}

function redactEnvelope(body: Buffer, target: RedactTarget): Buffer | null {
  if (!hasMagic(body)) return null;
  const env = decodeEnvelope(body);
  let raw: Buffer | null = null;
  if (target === 'token-request' && env.kind === 'TokenRequest') raw = rewriteRepeated(env.raw, 3, redactTokenField);
  else if (target === 'token-review' && env.kind === 'TokenReview') raw = rewriteRepeated(env.raw, 2, redactTokenField);
  else if (env.kind === 'Secret') raw = redactSecretMessage(env.raw);
  else if (env.kind === 'SecretList') raw = rewriteRepeated(env.raw, 2, redactSecretMessage);
  else if (env.kind === 'List') raw = rewriteRepeated(env.raw, 2, (ext) => rewriteRepeated(ext, 1, (b) => redactEnvelope(b, target)));
  if (!raw) return null;
  return encodeEnvelope(env, raw);
}

/** A length-prefixed protobuf watch frame whose object may be a Secret. */
export function redactProtobufFrame(frame: Buffer): Buffer | null {
  if (frame.length < 4) throw new Unredactable('protobuf watch frame shorter than its length prefix');
  let event;
  try {
    event = decodeWatchEvent(frame.subarray(4));
  } catch (err) {
    throw new Unredactable(`protobuf watch event: ${(err as Error).message}`);
  }
  const object = redactProtobuf(event.object);
  return object ? lengthPrefix(encodeWatchEvent(event.type, object)) : null;
}

/** A message whose field 1 is the token. */
function redactTokenField(msg: Buffer): Buffer | null {
  return rewriteFields(msg, (f) => (f.no === 1 && f.wire === WIRE_BYTES ? Buffer.from(REDACTED) : null));
}

function redactSecretMessage(secret: Buffer): Buffer | null {
  return rewriteFields(secret, (f) => {
    if (f.wire !== WIRE_BYTES) return null;
    if (f.no === 1) return rewriteRepeated(secret.subarray(f.start, f.end), 12, (entry) => redactMapEntry(entry, (key) => key === LAST_APPLIED ? REDACTED : null));
    if (f.no === 2) return redactMapEntry(secret.subarray(f.start, f.end), () => REDACTED);
    if (f.no === 4) return redactMapEntry(secret.subarray(f.start, f.end), () => REDACTED);
    return null;
  });
}

/** A map entry {key=1, value=2}: the value replaced when `replacement(key)` gives one. */
function redactMapEntry(entry: Buffer, replacement: (key: string) => string | null): Buffer | null {
  let key = '';
  forEachField(entry, 0, entry.length, (f) => {
    if (f.no === 1 && f.wire === WIRE_BYTES) key = entry.toString('utf8', f.start, f.end);
  });
  const value = replacement(key);
  if (value === null) return null;
  return new ProtoWriter().string(1, key).string(2, value).finish();
}

/** Rewrites every occurrence of the length-delimited field `no` with `rewrite`; other fields are copied verbatim. */
function rewriteRepeated(msg: Buffer, no: number, rewrite: (value: Buffer) => Buffer | null): Buffer | null {
  return rewriteFields(msg, (f) => (f.no === no && f.wire === WIRE_BYTES ? rewrite(msg.subarray(f.start, f.end)) : null));
}

/** Copies `msg` field by field, replacing the value of a field where `rewrite` returns new bytes. */
function rewriteFields(msg: Buffer, rewrite: (f: ProtoField) => Buffer | null): Buffer | null {
  const out = new ProtoWriter();
  let changed = false;
  forEachField(msg, 0, msg.length, (f) => {
    const replaced = rewrite(f);
    if (replaced) {
      out.bytes(f.no, replaced);
      changed = true;
    } else {
      out.raw(msg.subarray(f.tagStart, f.end));
    }
  });
  return changed ? out.finish() : null;
}
