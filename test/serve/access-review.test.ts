import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, type ServeServer } from '../../src/serve';
import { kubectl } from '../support/kube-clients';
import { request } from '../support/http-client';
import { tempTxRecording } from './tx-recording';

/** `kubectl auth can-i` against serve: an allow-all cluster's answers, nothing stored. */
describe('serve: SelfSubjectAccessReview and SelfSubjectRulesReview', () => {
  let dir: string;
  let api: ServeServer | undefined;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'kubetape-review-'));
  });
  afterEach(async () => {
    await api?.close();
    api = undefined;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('kubectl auth can-i create pods → yes; --list shows every verb on every resource (empty cluster)', async () => {
    api = await serve({});
    const yes = await kubectl(api.kubeconfigPath, join(dir, 'cache1'), ['auth', 'can-i', 'create', 'pods']);
    expect(yes).toMatchObject({ code: 0, stdout: 'yes\n' });
    const list = await kubectl(api.kubeconfigPath, join(dir, 'cache1'), ['auth', 'can-i', '--list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^\*\.\*\s+\[\]\s+\[\]\s+\[\*\]$/m);
    expect(list.stdout).toMatch(/^\s+\[\*\]\s+\[\]\s+\[\*\]$/m); // non-resource URLs
  });

  it('with a recording too, and the review is returned with status.allowed, not stored', async () => {
    const tx = tempTxRecording();
    try {
      api = await serve({ db: tx.db });
      const yes = await kubectl(api.kubeconfigPath, join(dir, 'cache2'), ['auth', 'can-i', 'delete', 'configmaps', '-n', 'tx']);
      expect(yes).toMatchObject({ code: 0, stdout: 'yes\n' });
      const review = { kind: 'SelfSubjectAccessReview', apiVersion: 'authorization.k8s.io/v1', metadata: { creationTimestamp: null }, spec: { resourceAttributes: { namespace: 'tx', verb: 'get', resource: 'secrets' } }, status: { allowed: false } };
      const res = await request(api.url, '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(review) });
      expect(res.status).toBe(201);
      expect(JSON.parse(res.body.toString())).toEqual({ ...review, status: { allowed: true } });
      const head = api.status().headResourceVersion;
      const list = await request(api.url, '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews');
      expect(list.status).not.toBe(200); // create-only: nothing to list
      expect(api.status().headResourceVersion).toBe(head);
    } finally {
      tx.remove();
    }
  });
});
