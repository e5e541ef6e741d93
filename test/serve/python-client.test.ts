import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { serve, type ServeServer } from '../../src/serve';
import { tempTxRecording } from './tx-recording';

const run = promisify(execFile);

/** Debian's python3-kubernetes lists and watches, sending its `True` booleans. */
const SCRIPT = `
import sys
from kubernetes import client, config, watch
config.load_kube_config(sys.argv[1])
v1 = client.CoreV1Api()
cms = v1.list_namespaced_config_map('tx', limit=12)
names = [c.metadata.name for c in cms.items]
while cms.metadata._continue:
    cms = v1.list_namespaced_config_map('tx', limit=12, _continue=cms.metadata._continue)
    names += [c.metadata.name for c in cms.items]
print('list', len(names), cms.metadata.resource_version)
w = watch.Watch()
for e in w.stream(v1.list_namespaced_config_map, 'tx', resource_version='232', allow_watch_bookmarks=True, timeout_seconds=3):
    o = e['object']
    meta = o['metadata'] if isinstance(o, dict) else o.metadata.to_dict()
    print('event', e['type'], meta.get('name'), meta.get('resource_version', meta.get('resourceVersion')))
`;

describe('serve: the Python client', () => {
  let tx: ReturnType<typeof tempTxRecording>;
  let api: ServeServer;

  beforeAll(async () => {
    tx = tempTxRecording();
    api = await serve({ db: tx.db });
  });
  afterAll(async () => {
    await api.close();
    tx.remove();
  });

  it('pages a list and watches from an RV with watch=True&allowWatchBookmarks=True', async () => {
    const { stdout } = await run('/usr/bin/python3', ['-c', SCRIPT, api.kubeconfigPath], { timeout: 30_000 });
    expect(stdout.trim().split('\n')).toEqual([
      'list 30 240',
      'event MODIFIED cm-01 234',
      'event MODIFIED cm-02 235',
      'event MODIFIED cm-03 236',
      'event BOOKMARK None 240',
    ]);
  });
});
