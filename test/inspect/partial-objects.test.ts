/** `kubetape inspect` names, per resource, the objects a recording holds only as Table rows or PartialObjectMetadata. */
import { join } from 'node:path';
import { recordSession, type RecordedSession } from '../support/record-session';
import { httpRequest } from '../support/http-client';
import { cli, kubectl } from '../record/support';

const METADATA = 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io,application/json';

let partial: RecordedSession;
let whole: RecordedSession;

beforeAll(async () => {
  partial = await recordSession('kubetape-inspect-partial-', async ({ fake, kubeconfig, dir }) => {
    fake.create('secrets', 'default', { metadata: { name: 's1' }, stringData: { a: 'b' } });
    await kubectl(kubeconfig, join(dir, 'cache'), ['get', 'cm', '-A']);
    // cm-01 is also read whole: it is no longer partial
    await kubectl(kubeconfig, join(dir, 'cache'), ['get', 'cm', '-n', 'default', 'cm-01', '-o', 'json']);
    const server = /server: (\S+)/.exec(require('node:fs').readFileSync(kubeconfig, 'utf8'))![1]!;
    await httpRequest(`${server}/api/v1/namespaces/default/secrets`, { headers: { Accept: METADATA } });
  });
  whole = await recordSession('kubetape-inspect-whole-', async ({ kubeconfig, dir }) => {
    await kubectl(kubeconfig, join(dir, 'cache'), ['get', 'cm', '-A', '-o', 'json']);
  });
});

afterAll(() => {
  partial?.remove();
  whole?.remove();
});

test('--json: partialObjects per resource, by the form they were seen in', async () => {
  const r = await cli(['inspect', '--db', partial.db, '--json']);
  expect(r.code).toBe(0);
  expect(JSON.parse(r.stdout).partialObjects).toEqual([
    { resource: 'configmaps/v1', tableRows: 4, metadata: 0 },
    { resource: 'secrets/v1', tableRows: 0, metadata: 1 },
  ]);
});

test('text: a section naming them, absent when every object was seen whole', async () => {
  const r = await cli(['inspect', '--db', partial.db]);
  expect(r.stdout).toContain('objects known only by their metadata (Table rows, PartialObjectMetadata; serve lacks their other fields; record with --complete):');
  expect(r.stdout).toMatch(/^ {2}configmaps\/v1 +4 +0$/m);
  expect(r.stdout).toMatch(/^ {2}secrets\/v1 +0 +1$/m);
  const clean = await cli(['inspect', '--db', whole.db]);
  expect(clean.code).toBe(0);
  expect(clean.stdout).not.toContain('known only by their metadata');
  const json = await cli(['inspect', '--db', whole.db, '--json']);
  expect(JSON.parse(json.stdout).partialObjects).toEqual([]);
});
