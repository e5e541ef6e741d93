/**
 * The recording writer never stops for one exchange: a message it cannot record (here a head whose
 * response headers are not the JSON the proxy sends) leaves a row saying what it was and why, and
 * the next exchanges of the same batch and of later batches are recorded as usual.
 */
import { openRecording } from '../../src/recording/open';
import { RecordingWriter } from '../../src/recording/writer/recording-writer';
import { prepareRecording } from '../../src/recording/writer/prepare-recording';
import type { ExchangeHead, WriterMessage } from '../../src/recording/writer/writer-protocol';
import { openDb, tempDir } from '../record/support';

const tmp = tempDir('kubetape-writer-contain-');
afterAll(() => tmp.remove());

function head(id: number, url: string, responseHeaders: string, streamed = false): ExchangeHead {
  return { id, startedAt: 1_700_000_000_000 + id, method: 'GET', url, requestHeaders: '[]', status: 200, responseHeaders, streamed, upgrade: false };
}

test('a message the writer cannot record is recorded as what it was, with the reason; the writer goes on', () => {
  const path = tmp.path('contain.db');
  const first = prepareRecording(path, { tool: 'test' });
  const writer = new RecordingWriter(openRecording(path), { keepSecrets: false });
  const body = Buffer.from('{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"a","namespace":"tx","resourceVersion":"7"}}\n');
  const good = '[["Content-Type","application/json"]]';
  const msgs: WriterMessage[] = [
    { k: 'close', id: first, head: head(first, '/api/v1/namespaces/tx/configmaps/bad', '{not json'), requestBody: null, responseBody: { off: 0, len: body.length }, outcome: 'complete', durationMs: 1 },
    { k: 'open', head: head(first + 1, '/api/v1/namespaces/tx/configmaps?watch=1', '{not json', true), requestBody: null },
    { k: 'chunk', id: first + 1, at: 5, data: { off: 0, len: body.length } },
    { k: 'close', id: first + 1, outcome: 'aborted', durationMs: 9 },
    { k: 'close', id: first + 2, head: head(first + 2, '/api/v1/namespaces/tx/configmaps/a', good), requestBody: null, responseBody: { off: 0, len: body.length }, outcome: 'complete', durationMs: 1 },
  ];
  writer.apply({ msgs, data: body });
  writer.apply({ msgs: [{ k: 'close', id: first + 3, head: head(first + 3, '/api/v1/namespaces/tx/configmaps/a', good), requestBody: null, responseBody: { off: 0, len: body.length }, outcome: 'complete', durationMs: 1 }], data: body });
  writer.close();

  const d = openDb(path);
  try {
    const rows = d.prepare('SELECT url, outcome, response_body IS NULL AS noBody, decode_error FROM exchanges ORDER BY id').all() as any[];
    expect(rows.map((r) => [r.url, r.outcome, r.noBody])).toEqual([
      ['/api/v1/namespaces/tx/configmaps/bad', 'complete', 1],
      ['/api/v1/namespaces/tx/configmaps?watch=1', 'aborted', 1],
      ['/api/v1/namespaces/tx/configmaps/a', 'complete', 0],
      ['/api/v1/namespaces/tx/configmaps/a', 'complete', 0],
    ]);
    expect(rows[0].decode_error).toMatch(/^kubetape could not record this exchange: .*JSON/);
    expect(rows[1].decode_error).toMatch(/^kubetape could not record this exchange: /);
    expect(rows[2].decode_error).toBeNull();
    expect((d.prepare('SELECT count(*) AS n FROM observations').get() as any).n).toBe(2);
  } finally {
    d.close();
  }
});
