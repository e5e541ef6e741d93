import { StatusError } from '../k8s/status';
import { transcript as readTranscript, transcriptJson } from '../../test/support/transcripts';
import { humanDuration } from './table-cells';
import {
  DEFAULT_TABLE_COLUMNS,
  parseIncludeObject,
  renderPartialObjectMetadataList,
  renderTable,
  tableRowKey,
  toPartialObjectMetadata,
  type RecordedRow,
} from './table';
import { encodeJson } from './response-body';

type Obj = Record<string, any>;

/** What the store would hold for a transcript's Table: each row's object as a ConfigMap with one data key. */
function fromTable(table: Obj) {
  const items: Obj[] = table.rows.map((r: Obj) => ({ metadata: r.object.metadata, data: { k: 'v' } }));
  const recordedRows = new Map<string, RecordedRow>(
    table.rows.map((r: Obj) => [tableRowKey(r.object.metadata.namespace, r.object.metadata.name), { cells: r.cells }]),
  );
  return { items, recordedRows };
}

/** The instant at which the transcript's Age cell was computed. */
function nowOf(table: Obj): number {
  const row = table.rows[0];
  return Date.parse(row.object.metadata.creationTimestamp) + parseInt(row.cells[2], 10) * 1000;
}

describe('renderTable', () => {
  test.each([
    ['f1-list-table.txt', 'v1'],
    ['f2-list-table-kubectl-accept.txt', 'v1'],
    ['f5-get-table.txt', 'v1'],
    ['f1b-list-table-v1beta1.txt', 'v1beta1'],
  ] as const)('%s: recorded columns and rows give the apiserver body byte for byte', (file, version) => {
    const expected = readTranscript(file).body;
    const table = JSON.parse(expected.toString('utf8'));
    const { items, recordedRows } = fromTable(table);
    const body = renderTable({
      items,
      columns: table.columnDefinitions,
      recordedRows,
      includeObject: 'Metadata',
      version,
      listMeta: table.metadata,
      now: nowOf(table),
    });
    expect(encodeJson(body)).toBe(expected.toString('utf8'));
  });

  test('the Age cell is computed at request time, not replayed', () => {
    const table = transcriptJson('f1-list-table.txt');
    const { items, recordedRows } = fromTable(table);
    const later = nowOf(table) + 3 * 3600_000;
    const body = renderTable({ items, columns: table.columnDefinitions, recordedRows, includeObject: 'Metadata', version: 'v1', listMeta: {}, now: later });
    expect(body.rows.map((r: Obj) => r.cells)).toEqual([
      ['cm-01', 1, '3h1m'],
      ['cm-02', 1, '3h1m'],
    ]);
  });

  test('objects without a recorded row get derived cells under the recorded columns', () => {
    const table = transcriptJson('f1-list-table.txt');
    const { items } = fromTable(table);
    items[1]!.data = { a: '1', b: '2' };
    items[1]!.binaryData = { c: 'AA==' };
    const body = renderTable({
      items,
      columns: table.columnDefinitions,
      includeObject: 'Metadata',
      version: 'v1',
      listMeta: table.metadata,
      typeMeta: { apiVersion: 'v1', kind: 'ConfigMap' },
      now: nowOf(table),
    });
    expect(body.rows.map((r: Obj) => r.cells)).toEqual([
      ['cm-01', 1, '76s'],
      ['cm-02', 3, '76s'],
    ]);
  });

  test('without recorded columns: the default Name / Created At table', () => {
    const table = transcriptJson('f1-list-table.txt');
    const { items } = fromTable(table);
    const body = renderTable({ items, includeObject: 'Metadata', version: 'v1', listMeta: { resourceVersion: '245' } });
    expect(Object.keys(body)).toEqual(['kind', 'apiVersion', 'metadata', 'columnDefinitions', 'rows']);
    expect(body.columnDefinitions).toEqual(DEFAULT_TABLE_COLUMNS);
    expect(body.columnDefinitions.map((c: Obj) => [c.name, c.type, c.format])).toEqual([
      ['Name', 'string', 'name'],
      ['Created At', 'date', ''],
    ]);
    expect(body.rows[0]).toEqual({ cells: ['cm-01', '2026-11-21T00:46:05Z'], object: table.rows[0].object });
    expect(body.metadata).toEqual({ resourceVersion: '245' });
  });

  test('includeObject None → "object":null; Object → the full object with kind and apiVersion first', () => {
    const cm = { metadata: { name: 'a', namespace: 'tx', creationTimestamp: '2026-11-21T00:46:05Z' }, data: { k: 'v' } };
    const none = renderTable({ items: [cm], includeObject: 'None', version: 'v1', listMeta: {} });
    expect(encodeJson(none.rows)).toBe('[{"cells":["a","2026-11-21T00:46:05Z"],"object":null}]\n');
    const full = renderTable({ items: [cm], includeObject: 'Object', version: 'v1', listMeta: {}, typeMeta: { apiVersion: 'v1', kind: 'ConfigMap' } });
    expect(JSON.stringify(full.rows[0].object)).toBe(
      '{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"a","namespace":"tx","creationTimestamp":"2026-11-21T00:46:05Z"},"data":{"k":"v"}}',
    );
  });

  test('noHeaders (watch events after the first) → columnDefinitions null; conditions kept', () => {
    const table = transcriptJson('f5-get-table.txt');
    const { items } = fromTable(table);
    const recordedRows = new Map([[tableRowKey('tx', 'cm-01'), { cells: ['cm-01', 1, '1s'], conditions: [{ type: 'Completed', status: 'True' }] }]]);
    const body = renderTable({ items, columns: table.columnDefinitions, recordedRows, includeObject: 'Metadata', version: 'v1', listMeta: {}, noHeaders: true, now: nowOf(table) });
    expect(body.columnDefinitions).toBeNull();
    expect(Object.keys(body.rows[0])).toEqual(['cells', 'conditions', 'object']);
  });

  test('empty lists: [] rows under recorded columns, null rows in the default table', () => {
    const table = transcriptJson('f1-list-table.txt');
    expect(renderTable({ items: [], columns: table.columnDefinitions, includeObject: 'Metadata', version: 'v1', listMeta: {} }).rows).toEqual([]);
    expect(renderTable({ items: [], includeObject: 'Metadata', version: 'v1', listMeta: {} }).rows).toBeNull();
  });
});

describe('PartialObjectMetadata', () => {
  test('f3: PartialObjectMetadataList byte for byte', () => {
    const expected = readTranscript('f3-list-partialobjectmetadata.txt').body.toString('utf8');
    const list = JSON.parse(expected);
    const items = list.items.map((i: Obj) => ({ metadata: i.metadata, data: { x: 'y' } }));
    expect(encodeJson(renderPartialObjectMetadataList({ items, version: 'v1', listMeta: list.metadata }))).toBe(expected);
  });

  test('ObjectMeta in Go field order, empty fields dropped, creationTimestamp null when unset', () => {
    const obj = { metadata: { labels: {}, annotations: { a: 'b' }, name: 'x', generation: 0, uid: 'u', deletionGracePeriodSeconds: 0, clusterName: 'old' } };
    expect(JSON.stringify(toPartialObjectMetadata(obj, 'v1beta1'))).toBe(
      '{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1beta1","metadata":{"name":"x","uid":"u","creationTimestamp":null,"deletionGracePeriodSeconds":0,"annotations":{"a":"b"}}}',
    );
  });
});

describe('parseIncludeObject', () => {
  test('values and the 400 for an unknown one', () => {
    expect(parseIncludeObject(null)).toBe('Metadata');
    expect(parseIncludeObject('Object')).toBe('Object');
    expect(parseIncludeObject('None')).toBe('None');
    let err: unknown;
    try {
      parseIncludeObject('All');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(StatusError);
    expect((err as StatusError).status).toMatchObject({
      code: 400,
      reason: 'BadRequest',
      message: 'Unable to convert to Table as requested: includeObject: Unsupported value: "All": supported values: "Metadata", "None", "Object"',
    });
  });
});

describe('humanDuration', () => {
  test.each([
    [-3000, '<invalid>'],
    [-1500, '0s'],
    [0, '0s'],
    [119_999, '119s'],
    [120_000, '2m'],
    [150_000, '2m30s'],
    [600_000, '10m'],
    [3 * 3600_000, '3h'],
    [3 * 3600_000 + 5 * 60_000, '3h5m'],
    [8 * 3600_000 + 59 * 60_000, '8h'],
    [48 * 3600_000, '2d'],
    [50 * 3600_000, '2d2h'],
    [8 * 24 * 3600_000, '8d'],
    [730 * 24 * 3600_000, '2y'],
    [740 * 24 * 3600_000, '2y10d'],
    [9 * 365 * 24 * 3600_000, '9y'],
  ])('%d ms → %s', (ms, text) => {
    expect(humanDuration(ms)).toBe(text);
  });
});
