/**
 * A recording for write tests: namespaces `default`, `kube-system`, `w` and `wdel` (Terminating)
 * and empty lists of the resources the tests write, all at revision 100.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, type ServeServer, type ServeOptions } from '../../src/serve';
import { CONFIGMAPS, RecordingBuilder, type ResourceRef } from '../support/recording-builder';

export const NAMESPACES: ResourceRef = { version: 'v1', resource: 'namespaces', kind: 'Namespace' };
export const PODS: ResourceRef = { version: 'v1', resource: 'pods', kind: 'Pod' };
export const SECRETS: ResourceRef = { version: 'v1', resource: 'secrets', kind: 'Secret' };
export const DEPLOYMENTS: ResourceRef = { group: 'apps', version: 'v1', resource: 'deployments', kind: 'Deployment' };
export const ENDPOINTS: ResourceRef = { version: 'v1', resource: 'endpoints', kind: 'Endpoints' };
export const LEASES: ResourceRef = { group: 'coordination.k8s.io', version: 'v1', resource: 'leases', kind: 'Lease' };

function namespace(name: string, rv: number, terminating = false): Record<string, any> {
  const metadata: Record<string, any> = { name, uid: `uid-ns-${name}`, resourceVersion: String(rv), creationTimestamp: '2026-11-24T05:23:58Z' };
  if (terminating) metadata.deletionTimestamp = '2026-11-24T05:27:54Z';
  metadata.labels = { 'kubernetes.io/metadata.name': name };
  return { metadata, spec: { finalizers: ['kubernetes'] }, status: { phase: terminating ? 'Terminating' : 'Active' } };
}

export function buildWriteRecording(path: string): void {
  const b = new RecordingBuilder(path);
  b.list(NAMESPACES, { rv: 100, items: [namespace('default', 10), namespace('kube-system', 11), namespace('w', 90), namespace('wp', 92), namespace('wdel', 91, true)] });
  for (const ref of [CONFIGMAPS, PODS, SECRETS, DEPLOYMENTS, LEASES, ENDPOINTS]) b.list(ref, { rv: 100, items: [] });
  b.close();
}

export interface WriteCluster {
  api: ServeServer;
  close(): Promise<void>;
}

/** serve over the write recording (seed 1, manual clock unless given). */
export async function writeCluster(options: Partial<ServeOptions> = {}): Promise<WriteCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'kubetape-writes-'));
  const db = join(dir, 'w.db');
  buildWriteRecording(db);
  const api = await serve({ db, seed: 1, ...options });
  return {
    api,
    close: async () => {
      await api.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
