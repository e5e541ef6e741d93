/**
 * A session recorded through `kubetape record` from the fake apiserver: a temporary folder, a
 * fake with five ConfigMaps in `default` (cm-01 … cm-05), the recorder in front of it, and the
 * caller's clients run against the recorder's kubeconfig. Recorder and fake are closed after.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { record, type RecordOptions } from '../../src/record';
import { startFakeApiserver, type FakeApiserver } from './fake-apiserver';

export interface RecordingClients {
  /** The upstream, to change objects while the session records. */
  fake: FakeApiserver;
  /** A kubeconfig pointing at the recorder. */
  kubeconfig: string;
  /** The session's folder (for kubectl caches and the like). */
  dir: string;
}

export interface RecordedSession {
  dir: string;
  /** The recording. */
  db: string;
  /** Deletes the folder. */
  remove(): void;
}

/** `options`: more record options (`complete` …). */
export async function recordSession(
  prefix: string,
  clients: (c: RecordingClients) => Promise<void>,
  options: Partial<RecordOptions> = {},
): Promise<RecordedSession> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const db = join(dir, 'session.db');
  const fake = await startFakeApiserver();
  fake.seedConfigMaps('default', 5);
  const kubeconfig = join(dir, 'record.kubeconfig');
  const remove = () => rmSync(dir, { recursive: true, force: true });
  try {
    const rec = await record({ db, upstream: fake.url, listen: '127.0.0.1:0', writeKubeconfig: kubeconfig, ...options });
    try {
      await clients({ fake, kubeconfig, dir });
    } finally {
      await rec.close();
    }
  } catch (err) {
    remove();
    throw err;
  } finally {
    await fake.close();
  }
  return { dir, db, remove };
}
