/**
 * The recording file: one SQLite database, append-only, WAL.
 *
 * `application_id` marks a file as a kubetape recording; `user_version` is the schema version,
 * moved forward by `migrations` (index i migrates version i to i+1).
 *
 * Tables:
 * - `meta`          key/value facts about the session (tool version, upstream, started_at).
 * - `exchanges`     one row per HTTP exchange, with the whole body when it was not streamed.
 * - `frames`        streamed bodies, with their arrival offsets from the exchange start: for a
 *                   watch, one row per arrival holding the whole events completed by it (schema
 *                   1 files: one event a row), for other streams the raw chunks. New files make it
 *                   a rowid table, which costs the writer less CPU per byte than WITHOUT ROWID for
 *                   rows of tens of KiB; older files may have it WITHOUT ROWID, which is read and
 *                   appended to alike.
 * - `observations`  the object log serve mode rebuilds its store from: every object seen in a
 *                   list, watch event, get or write response (DESIGN.md, Reconstruction). A watch
 *                   event's object is not copied: `raw` is NULL and `frame_offset`/`frame_length`
 *                   locate it in its frame (`OBSERVATION_RAW_SQL` reads it either way). In schema
 *                   3, a view over the two tables below.
 * - `observation_rows`   (schema 3) observations of lists, gets, writes, Table watches: a row each.
 * - `watch_observations` (schema 3) a watch's events, one row per frame: their observations packed.
 * - `lists`         one row per list response (a page): scope, request and response list meta.
 * - `watches`       one row per watch stream: scope, start RV, event count, RV range, how it ended.
 * - `compactions`   (optional, any schema version) when the server compacted its store and to
 *                   which revision: written by `serve --out`, created with its first row; readers
 *                   take a file without it as one with no compaction recorded.
 */
export const APPLICATION_ID = 0x6b746170; // "ktap"
export const SCHEMA_VERSION = 3;

const v1 = `
CREATE TABLE meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);

CREATE TABLE exchanges (
  id               INTEGER PRIMARY KEY,
  started_at       REAL    NOT NULL,            -- ms since the epoch
  method           TEXT    NOT NULL,
  url              TEXT    NOT NULL,            -- path and query as the client sent them
  verb             TEXT    NOT NULL,            -- RequestVerb (src/k8s/request-info.ts)
  api_group        TEXT    NOT NULL DEFAULT '',
  api_version      TEXT    NOT NULL DEFAULT '',
  resource         TEXT    NOT NULL DEFAULT '',
  subresource      TEXT    NOT NULL DEFAULT '',
  namespace        TEXT    NOT NULL DEFAULT '',
  name             TEXT    NOT NULL DEFAULT '',
  request_headers  TEXT    NOT NULL,            -- JSON [[name, value], ...], secrets redacted
  request_body     BLOB,
  status           INTEGER,                     -- null when no response head was received
  response_headers TEXT,                        -- JSON [[name, value], ...]
  response_body    BLOB,                        -- as on the wire (still gzip if it was), unless streamed
  streamed         INTEGER NOT NULL DEFAULT 0,  -- 1: body is in frames
  upgrade          INTEGER NOT NULL DEFAULT 0,  -- 1: connection upgrade (exec, attach, port-forward)
  duration_ms      REAL,
  outcome          TEXT    NOT NULL DEFAULT 'open', -- open | complete | aborted | reset | error
  error            TEXT,                        -- why it did not complete (upstream error, client abort)
  decode_error     TEXT,                        -- why the body could not be decoded, if it could not
  injected         TEXT                         -- name of the fault rule that produced or altered it
);

CREATE TABLE frames (
  exchange_id INTEGER NOT NULL,
  seq         INTEGER NOT NULL,
  offset_ms   REAL    NOT NULL,                 -- arrival time minus exchange start
  data        BLOB    NOT NULL,
  PRIMARY KEY (exchange_id, seq)
);

CREATE TABLE observations (
  id          INTEGER PRIMARY KEY,              -- observation order
  exchange_id INTEGER NOT NULL,
  seq         INTEGER NOT NULL,                 -- item index in a list page, frame seq in a watch
  at_ms       REAL    NOT NULL,                 -- ms since the epoch when it was seen
  source      TEXT    NOT NULL,                 -- list | watch | get | write
  event       TEXT,                             -- watch: ADDED | MODIFIED | DELETED | BOOKMARK; write: DELETED for a delete
  form        TEXT    NOT NULL DEFAULT 'object',-- object | metadata (PartialObjectMetadata) | table-row
  api_group   TEXT    NOT NULL,
  api_version TEXT    NOT NULL,
  resource    TEXT    NOT NULL,
  kind        TEXT,
  namespace   TEXT    NOT NULL DEFAULT '',
  name        TEXT    NOT NULL DEFAULT '',
  uid         TEXT,
  rv          TEXT,                             -- the object's (or bookmark's) resourceVersion
  encoding    TEXT,                             -- json | protobuf
  raw         BLOB                              -- JSON text, or a k8s\\0-enveloped protobuf object;
                                                -- a table-row: JSON {cells, object, conditions}
);
CREATE INDEX observations_by_resource ON observations (api_group, resource, id);

CREATE TABLE lists (
  exchange_id      INTEGER PRIMARY KEY,
  at_ms            REAL    NOT NULL,
  api_group        TEXT    NOT NULL,
  api_version      TEXT    NOT NULL,
  resource         TEXT    NOT NULL,
  kind             TEXT,                        -- ConfigMapList, Table, PartialObjectMetadataList
  namespace        TEXT    NOT NULL DEFAULT '',
  label_selector   TEXT    NOT NULL DEFAULT '',
  field_selector   TEXT    NOT NULL DEFAULT '',
  request_rv       TEXT,
  request_rv_match TEXT,
  request_continue TEXT,
  request_limit    INTEGER,
  rv               TEXT,
  continue         TEXT,
  remaining        INTEGER,
  items            INTEGER NOT NULL,
  encoding         TEXT,
  columns          TEXT                         -- Table: JSON columnDefinitions
);

CREATE TABLE watches (
  exchange_id    INTEGER PRIMARY KEY,
  at_ms          REAL    NOT NULL,
  api_group      TEXT    NOT NULL,
  api_version    TEXT    NOT NULL,
  resource       TEXT    NOT NULL,
  namespace      TEXT    NOT NULL DEFAULT '',
  label_selector TEXT    NOT NULL DEFAULT '',
  field_selector TEXT    NOT NULL DEFAULT '',
  start_rv       TEXT,
  encoding       TEXT,
  events         INTEGER NOT NULL DEFAULT 0,
  first_rv       TEXT,
  last_rv        TEXT,
  ended          TEXT                           -- complete | aborted | reset | error | expired (ERROR 410)
);
`;

/**
 * Version 2: a watch's frames hold every event completed by one arrival, and a watch observation
 * points into its frame instead of repeating the object's bytes; the events of one frame share its
 * `seq`. Version 1 observations keep their `raw`.
 */
const v2 = `
ALTER TABLE observations ADD COLUMN frame_offset INTEGER; -- raw NULL: the object is bytes
ALTER TABLE observations ADD COLUMN frame_length INTEGER; -- [frame_offset, +frame_length) of frames (exchange_id, seq)
`;

/** The next observation id (schema 3: `observation_rows` and `watch_observations` share one sequence). */
const NEXT_OBSERVATION_ID = `max(coalesce((SELECT max(id) FROM observation_rows), 0),
  coalesce((SELECT first_id + count - 1 FROM watch_observations ORDER BY first_id DESC LIMIT 1), 0)) + 1`;
export const NEXT_OBSERVATION_ID_SQL = `SELECT ${NEXT_OBSERVATION_ID}`;

/**
 * Version 3: a watch's observations are kept one row per frame in `watch_observations` (the events
 * of one arrival packed as JSONB), not one row per event, which spares the writer a row insert per
 * event. The table of every other observation becomes `observation_rows`, and `observations` is a
 * view over both, one row per observation, so that readers keep one shape; inserting into the view
 * (hand-made recordings) inserts into `observation_rows`. Ids are one sequence across both tables:
 * a frame's events take `first_id` … `first_id + count - 1`. The rebuild scan unpacks frames
 * itself (reader/observation-scan.ts).
 */
const v3 = `
ALTER TABLE observations RENAME TO observation_rows;

CREATE TABLE watch_observations (
  first_id    INTEGER PRIMARY KEY,              -- observation id of the first event; the rest follow in order
  count       INTEGER NOT NULL,                 -- events in the events array
  exchange_id INTEGER NOT NULL,
  seq         INTEGER NOT NULL,                 -- the frame (frames.exchange_id, seq) the events are in
  at_ms       REAL    NOT NULL,
  api_group   TEXT    NOT NULL,
  api_version TEXT    NOT NULL,
  resource    TEXT    NOT NULL,
  encoding    TEXT    NOT NULL,                 -- json | protobuf
  events      BLOB    NOT NULL                  -- JSONB of [[event, form, kind, namespace, name, uid, rv, frame_offset, frame_length], ...]
);

CREATE VIEW observations AS
  SELECT id, exchange_id, seq, at_ms, source, event, form, api_group, api_version, resource, kind, namespace, name, uid, rv, encoding,
         raw, frame_offset, frame_length
  FROM observation_rows
  UNION ALL
  SELECT w.first_id + e.key, w.exchange_id, w.seq, w.at_ms, 'watch', e.value ->> 0, e.value ->> 1, w.api_group, w.api_version,
         w.resource, e.value ->> 2, e.value ->> 3, e.value ->> 4, e.value ->> 5, e.value ->> 6, w.encoding, NULL, e.value ->> 7,
         e.value ->> 8
  FROM watch_observations w, jsonb_each(w.events) e;

CREATE TRIGGER observations_insert INSTEAD OF INSERT ON observations BEGIN
  INSERT INTO observation_rows (id, exchange_id, seq, at_ms, source, event, form, api_group, api_version, resource, kind, namespace,
    name, uid, rv, encoding, raw, frame_offset, frame_length)
  VALUES (coalesce(NEW.id, ${NEXT_OBSERVATION_ID}),
    NEW.exchange_id, NEW.seq, NEW.at_ms, NEW.source, NEW.event, coalesce(NEW.form, 'object'), NEW.api_group, NEW.api_version,
    NEW.resource, NEW.kind, coalesce(NEW.namespace, ''), coalesce(NEW.name, ''), NEW.uid, NEW.rv, NEW.encoding, NEW.raw,
    NEW.frame_offset, NEW.frame_length);
END;
`;

/** The optional `compactions` table (see above), created by the first compaction a recording holds. */
export const CREATE_COMPACTIONS = 'CREATE TABLE IF NOT EXISTS compactions (at_ms REAL NOT NULL, rv INTEGER NOT NULL)';

/** migrations[i] takes a file from schema version i to i + 1. */
export const migrations: readonly string[] = [v1, v2, v3];

/**
 * An observation's object bytes as SQL over `observations o` (a BLOB): its own `raw`, or the
 * slice of the watch frame it was seen in.
 */
export const OBSERVATION_RAW_SQL = `coalesce(o.raw, (SELECT substr(f.data, o.frame_offset + 1, o.frame_length) FROM frames f
  WHERE f.exchange_id = o.exchange_id AND f.seq = o.seq AND o.frame_offset IS NOT NULL))`;

/**
 * `observations_by_resource` is dropped while a session records and built when it closes, so the
 * writer does not keep it up on every insert. A file whose recorder was killed lacks it until a
 * later session closes: reads by resource are slower, not different.
 */
export const DROP_RESOURCE_INDEX = 'DROP INDEX IF EXISTS observations_by_resource';
export const CREATE_RESOURCE_INDEX = 'CREATE INDEX IF NOT EXISTS observations_by_resource ON observation_rows (api_group, resource, id)';

/** One watch event's observation as `watch_observations.events` packs it (PackedWatchEvents writes it). */
export type PackedWatchEvent = [event: string, form: string, kind: string | null, namespace: string, name: string, uid: string | null,
  rv: string | null, frameOffset: number, frameLength: number];

/** A `lists` row, as the writer inserts it (the reader selects a part of it). */
export interface ListRow {
  exchangeId: number;
  atMs: number;
  apiGroup: string;
  apiVersion: string;
  resource: string;
  kind: string | null;
  namespace: string;
  labelSelector: string;
  fieldSelector: string;
  requestRv: string | null;
  requestRvMatch: string | null;
  requestContinue: string | null;
  requestLimit: number | null;
  rv: string | null;
  continue: string | null;
  remaining: number | null;
  items: number;
  encoding: string | null;
  columns: string | null;
}
