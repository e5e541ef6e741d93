/**
 * Secret values never reach the recording unless asked (`--keep-secrets`): in a Secret (JSON or
 * protobuf, alone, in a list, a Table row or a watch event) every `data` value becomes
 * base64("[redacted]"), every `stringData` value "[redacted]", and the
 * `kubectl.kubernetes.io/last-applied-configuration` annotation (which repeats the data) too.
 * Keys, metadata and everything else stay, so a replayed client still sees which keys exist.
 * The functions return the rewritten bytes, or null when there was nothing to redact.
 */
import { goJson } from '../../wire/json-spans';
import { WIRE_BYTES, ProtoWriter, forEachField, type ProtoField } from '../../wire/protobuf-fields';
import { decodeEnvelope, decodeWatchEvent, encodeEnvelope, encodeWatchEvent, hasMagic, lengthPrefix } from '../../wire/protobuf';

export const REDACTED = '[redacted]';
export const REDACTED_BASE64 = Buffer.from(REDACTED).toString('base64');
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

type Json = Record<string, unknown>;

/** A JSON body or watch frame (a trailing newline is kept). Malformed JSON is left alone (null). */
export function redactSecretsJson(text: Buffer): Buffer | null {
  let value: unknown;
  try {
    value = JSON.parse(text.toString('utf8'));
  } catch {
    return null;
  }
  if (!redactValue(value, false)) return null;
  const newline = text.length > 0 && text[text.length - 1] === 0x0a ? '\n' : '';
  return Buffer.from(goJson(value) + newline);
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

/** An enveloped protobuf body: a Secret, a SecretList, or a metav1.List holding Secrets. */
export function redactSecretsProtobuf(body: Buffer): Buffer | null {
  if (!hasMagic(body)) return null;
  const env = decodeEnvelope(body);
  let raw: Buffer | null = null;
  if (env.kind === 'Secret') raw = redactSecretMessage(env.raw);
  else if (env.kind === 'SecretList') raw = rewriteRepeated(env.raw, 2, redactSecretMessage);
  else if (env.kind === 'List') raw = rewriteRepeated(env.raw, 2, (ext) => rewriteRepeated(ext, 1, redactSecretsProtobuf));
  if (!raw) return null;
  return encodeEnvelope(env, raw);
}

/** A length-prefixed protobuf watch frame whose object may be a Secret. */
export function redactSecretsProtobufFrame(frame: Buffer): Buffer | null {
  if (frame.length < 4) return null;
  const event = decodeWatchEvent(frame.subarray(4));
  const object = redactSecretsProtobuf(event.object);
  return object ? lengthPrefix(encodeWatchEvent(event.type, object)) : null;
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
