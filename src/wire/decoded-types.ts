/** What the decoders hand to the recorder's object log (and to anyone indexing a body or a watch frame). */
import type { Status } from './status-types';

export type Encoding = 'json' | 'protobuf';

/** 'object': a full object; 'metadata': a PartialObjectMetadata; 'table-row': one row of a Table. */
export type ObjectForm = 'object' | 'metadata' | 'table-row';

export interface DecodedObject {
  apiVersion: string;
  kind: string;
  namespace: string;
  name: string;
  uid: string;
  resourceVersion: string;
  /**
   * JSON: the object's text as the server wrote it (list items that came without kind/apiVersion
   * get them prepended, as a GET would show them; pretty-printed input is re-serialised compactly).
   * protobuf: the k8s\0-enveloped object (list items wrapped in an envelope whose kind is the list
   * kind minus "List"). table-row: the row's JSON {cells, object?, conditions?}.
   * May be a view into the decoded body/frame: copy it if you keep it beyond the chunk's life.
   */
  raw: Buffer;
  encoding: Encoding;
  form: ObjectForm;
}

export interface DecodedList {
  type: 'list';
  apiVersion: string;
  kind: string;
  encoding: Encoding;
  resourceVersion: string;
  continue: string;
  remainingItemCount?: number;
  items: DecodedObject[];
  /** Table columnDefinitions (Tables only). */
  columns?: unknown[];
}

export type DecodedBody =
  | { type: 'object'; object: DecodedObject }
  | DecodedList
  | { type: 'status'; status: Status }
  | { type: 'other'; reason?: string };

export interface DecodedWatchEvent {
  /** ADDED MODIFIED DELETED BOOKMARK ERROR, as sent. */
  type: string;
  object?: DecodedObject;
  /** Set instead of `object` when the event carries a Status (ERROR events). */
  status?: Status;
  /** Table watches: the columnDefinitions, when the event's Table carries them. */
  columns?: unknown[];
}
