/**
 * `kubetape record --complete`: `kubectl get cm -A` shows Tables only; with --complete the recorder
 * lists the ConfigMaps whole (its own request, User-Agent kubetape-record/complete), so that serve
 * answers `kubectl get cm NAME -o yaml` with `data`; without it, serve warns that the data is missing.
 * Replay never answers a client with the recorder's own exchange.
 */
import { join } from 'node:path';
import { recordSession, type RecordedSession } from '../support/record-session';
import { kubectl, rows } from './support';
import { serve, type ServeServer } from '../../src/serve';
import { replay } from '../../src/replay';
import { httpRequest } from '../support/http-client';
import { NO_CONTROLLERS } from '../../src/serve';

let plain: RecordedSession;
let complete: RecordedSession;

const getAll = async ({ kubeconfig, dir }: { kubeconfig: string; dir: string }) => {
  const r = await kubectl(kubeconfig, join(dir, 'cache'), ['get', 'cm', '-A']);
  expect(r.stdout).toContain('cm-03');
};

beforeAll(async () => {
  plain = await recordSession('kubetape-partial-plain-', getAll);
  complete = await recordSession('kubetape-partial-complete-', getAll, { complete: true });
});

afterAll(() => {
  plain?.remove();
  complete?.remove();
});

async function served<T>(db: string, run: (api: ServeServer, cache: string) => Promise<T>): Promise<T> {
  const api = await serve({ db, listen: '127.0.0.1:0', controllers: NO_CONTROLLERS });
  try {
    return await run(api, join(db, '..', 'serve-cache'));
  } finally {
    await api.close();
  }
}

test('--complete: the recorder lists the configmaps whole once, marked as its own request', () => {
  const mine = rows<{ url: string; request_headers: string; status: number }>(complete.db,
    `SELECT url, request_headers, status FROM exchanges WHERE request_headers LIKE '%kubetape-record/complete%'`);
  expect(mine).toEqual([{ url: '/api/v1/configmaps?limit=500', request_headers: JSON.stringify([['Accept', 'application/json'], ['User-Agent', 'kubetape-record/complete']]), status: 200 }]);
  const forms = rows<{ form: string; n: number }>(complete.db, `SELECT form, count(*) AS n FROM observations WHERE resource = 'configmaps' GROUP BY form ORDER BY form`);
  expect(forms).toEqual([{ form: 'object', n: 5 }, { form: 'table-row', n: 5 }]);
  // Without --complete: the Table rows only, and no request of the recorder's.
  expect(rows(plain.db, `SELECT id FROM exchanges WHERE request_headers LIKE '%kubetape-record/%'`)).toEqual([]);
  expect(rows<{ form: string }>(plain.db, `SELECT DISTINCT form FROM observations WHERE resource = 'configmaps'`)).toEqual([{ form: 'table-row' }]);
});

test('serve of a --complete recording: kubectl get cm NAME -o yaml has data and no warning', async () => {
  await served(complete.db, async (api, cache) => {
    const r = await kubectl(api.kubeconfigPath, cache, ['get', 'cm', '-n', 'default', 'cm-02', '-o', 'yaml']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^data:\n {2}\S+: /m);
    expect(r.stderr).not.toContain('Warning');
  });
});

test('serve of a recording without --complete: no data, and the warning names the object', async () => {
  await served(plain.db, async (api, cache) => {
    const r = await kubectl(api.kubeconfigPath, cache, ['get', 'cm', '-n', 'default', 'cm-02', '-o', 'yaml']);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(/^data:/m);
    expect(r.stdout).toMatch(/^ {2}name: cm-02$/m);
    expect(r.stderr).toContain('Warning: kubetape: the recording holds only the metadata of configmaps default/cm-02 (seen as Table rows); its other fields are missing');
  });
});

test('replay never answers a client with the recorder\'s own exchange', async () => {
  const api = await replay({ db: complete.db, listen: '127.0.0.1:0' });
  try {
    const r = await httpRequest(`${api.url}/api/v1/configmaps?limit=500`, { headers: { Accept: 'application/json' } });
    expect(r.status).toBe(404);
    const table = await httpRequest(`${api.url}/api/v1/configmaps?limit=500`, {
      headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json' },
    });
    expect(table.status).toBe(200);
    expect(JSON.parse(table.body.toString()).kind).toBe('Table');
  } finally {
    await api.close();
  }
});
