/**
 * metav1.Status in protobuf (the typed message inside an envelope with kind Status):
 *   Status {metadata=1 ListMeta, status=2, message=3, reason=4, details=5, code=6}
 *   StatusDetails {name=1, group=2, kind=3, causes=4, retryAfterSeconds=5, uid=6}
 *   StatusCause {type=1 (JSON "reason"), message=2, field=3}
 * Read into the JSON shape of src/k8s/status.ts (empty strings omitted, as Go's omitempty does),
 * written the way Go marshals it (non-pointer fields always present).
 */
import type { Status, StatusCause, StatusDetails } from './status-types';
import { ProtoWriter, WIRE_BYTES, WIRE_VARINT, expectWire, fieldString, forEachField, toSigned64 } from './protobuf-fields';
import { ListMetaLite, encodeListMeta } from './protobuf-meta';

export function readStatus(typedStatus: Buffer): Status {
  const buf = typedStatus;
  const metadata: Status['metadata'] = {};
  let status = '';
  let message = '';
  let reason = '';
  let details: StatusDetails | undefined;
  let code = 0;
  forEachField(buf, 0, buf.length, (f) => {
    switch (f.no) {
      case 1:
        expectWire(f, WIRE_BYTES, 'status metadata');
        forEachField(buf, f.start, f.end, (m) => {
          if (m.no === 2) setIfNonEmpty(metadata, 'resourceVersion', fieldString(buf, m, 'status metadata.resourceVersion'));
          else if (m.no === 3) setIfNonEmpty(metadata, 'continue', fieldString(buf, m, 'status metadata.continue'));
        });
        break;
      case 2: status = fieldString(buf, f, 'status.status'); break;
      case 3: message = fieldString(buf, f, 'status.message'); break;
      case 4: reason = fieldString(buf, f, 'status.reason'); break;
      case 5:
        expectWire(f, WIRE_BYTES, 'status.details');
        details = readDetails(buf, f.start, f.end);
        break;
      case 6:
        expectWire(f, WIRE_VARINT, 'status.code');
        code = toSigned64(f.value);
        break;
    }
  });
  const out = { kind: 'Status', apiVersion: 'v1', metadata } as Status;
  if (status) out.status = status as Status['status'];
  if (message) out.message = message;
  if (reason) out.reason = reason;
  if (details) out.details = details;
  out.code = code;
  return out;
}

function readDetails(buf: Buffer, start: number, end: number): StatusDetails {
  let name = '';
  let group = '';
  let kind = '';
  let uid = '';
  let retryAfterSeconds = 0;
  const causes: StatusCause[] = [];
  forEachField(buf, start, end, (f) => {
    switch (f.no) {
      case 1: name = fieldString(buf, f, 'status.details.name'); break;
      case 2: group = fieldString(buf, f, 'status.details.group'); break;
      case 3: kind = fieldString(buf, f, 'status.details.kind'); break;
      case 4:
        expectWire(f, WIRE_BYTES, 'status.details.causes');
        causes.push(readCause(buf, f.start, f.end));
        break;
      case 5:
        expectWire(f, WIRE_VARINT, 'status.details.retryAfterSeconds');
        retryAfterSeconds = toSigned64(f.value);
        break;
      case 6: uid = fieldString(buf, f, 'status.details.uid'); break;
    }
  });
  // Go's JSON field order: name, group, kind, uid, causes, retryAfterSeconds.
  const details: StatusDetails = {};
  if (name) details.name = name;
  if (group) details.group = group;
  if (kind) details.kind = kind;
  if (uid) details.uid = uid;
  if (causes.length) details.causes = causes;
  if (retryAfterSeconds) details.retryAfterSeconds = retryAfterSeconds;
  return details;
}

function readCause(buf: Buffer, start: number, end: number): StatusCause {
  const cause: StatusCause = {};
  forEachField(buf, start, end, (f) => {
    if (f.no === 1) setIfNonEmpty(cause, 'reason', fieldString(buf, f, 'status cause.reason'));
    else if (f.no === 2) setIfNonEmpty(cause, 'message', fieldString(buf, f, 'status cause.message'));
    else if (f.no === 3) setIfNonEmpty(cause, 'field', fieldString(buf, f, 'status cause.field'));
  });
  return cause;
}

function setIfNonEmpty<T extends object>(target: T, key: keyof T & string, value: string): void {
  if (value) (target as Record<string, string>)[key] = value;
  else delete (target as Record<string, string>)[key];
}

/** The typed Status message (no envelope); wrap it with encodeEnvelope({apiVersion:'v1', kind:'Status'}, …). */
export function encodeStatus(status: Status): Buffer {
  const meta: ListMetaLite = {
    resourceVersion: status.metadata?.resourceVersion ?? '',
    continue: status.metadata?.continue ?? '',
  };
  const w = new ProtoWriter()
    .bytes(1, encodeListMeta(meta))
    .string(2, status.status ?? '')
    .string(3, status.message ?? '')
    .string(4, status.reason ?? '');
  if (status.details) w.message(5, encodeDetails(status.details));
  return w.varint(6, status.code ?? 0).finish();
}

function encodeDetails(d: StatusDetails): ProtoWriter {
  const w = new ProtoWriter().string(1, d.name ?? '').string(2, d.group ?? '').string(3, d.kind ?? '');
  for (const c of d.causes ?? []) {
    w.message(4, new ProtoWriter().string(1, c.reason ?? '').string(2, c.message ?? '').string(3, c.field ?? ''));
  }
  return w.varint(5, d.retryAfterSeconds ?? 0).string(6, d.uid ?? '');
}
