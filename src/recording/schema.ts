/**
 * The recording file: one SQLite database, append-only, WAL.
 *
 * `application_id` marks a file as a kubetape recording; `user_version` is the schema version,
 * moved forward by `migrations` (index i migrates version i to i+1).
 *
 * Tables:
 * - `meta`          key/value facts about the session (tool version, upstream, started_at).
 * - `exchanges`     one row per HTTP exchange, with the whole body when it was not streamed.
 * - `frames`        streamed bodies: one row per frame (a watch event, or a raw chunk for other
 *                   streams) with its arrival offset from the exchange start.
 * - `observations`  the object log serve mode rebuilds its store from: every object seen in a
 *                   list, watch event, get or write response (DESIGN.md, Reconstruction).
 * - `lists`         one row per list response (a page): scope, request and response list meta.
 * - `watches`       one row per watch stream: scope, start RV, event count, RV range, how it ended.
 */
export const APPLICATION_ID = 0x6b746170; // "ktap"
export const SCHEMA_VERSION = 1;

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
) WITHOUT ROWID;

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

/** migrations[i] takes a file from schema version i to i + 1. */
export const migrations: readonly string[] = [v1];
