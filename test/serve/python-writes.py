"""Writes with Debian's python3-kubernetes, as a Python test or operator makes them.

Run by python-writes.test.ts: python3 python-writes.py KUBECONFIG DISCOVERY_CACHE_FILE.
Prints one JSON line per step: what the client got back, for the test to compare with the store.
"""
import json
import sys
import time

from kubernetes import client, config, dynamic
from kubernetes.client.rest import ApiException

config.load_kube_config(sys.argv[1])
api_client = client.ApiClient()
v1 = client.CoreV1Api(api_client)
apps = client.AppsV1Api(api_client)
dyn = dynamic.DynamicClient(api_client, cache_file=sys.argv[2])
MERGE = 'application/merge-patch+json'


def out(step, **values):
    print(json.dumps({'step': step, **values}, sort_keys=True), flush=True)


v1.create_namespace({'metadata': {'name': 'py'}})

# ConfigMap: create, strategic merge patch (a dict body), merge patch (the dynamic client),
# JSON patch (a list body), a stale replace, delete.
cm = v1.create_namespaced_config_map('py', {
    'metadata': {'name': 'settings', 'labels': {'app': 'py'}},
    'data': {'mode': 'dev', 'drop': 'me'},
})
out('cm-created', rv=cm.metadata.resource_version, data=cm.data, manager=cm.metadata.managed_fields[0].manager)
cm = v1.patch_namespaced_config_map('settings', 'py', {'metadata': {'labels': {'tier': 'a'}}, 'data': {'level': '3'}})
out('cm-strategic', labels=cm.metadata.labels, data=cm.data)
configmaps = dyn.resources.get(api_version='v1', kind='ConfigMap')
cm = configmaps.patch(name='settings', namespace='py', body={'data': {'drop': None, 'mode': 'prod'}}, content_type=MERGE)
out('cm-merge', data=cm.to_dict()['data'])
cm = v1.patch_namespaced_config_map('settings', 'py', [{'op': 'add', 'path': '/metadata/annotations', 'value': {'note': 'json'}}])
out('cm-json', annotations=cm.metadata.annotations, rv=cm.metadata.resource_version)
stale = v1.read_namespaced_config_map('settings', 'py')
stale.metadata.resource_version = '1'
stale.data['mode'] = 'stale'
try:
    v1.replace_namespaced_config_map('settings', 'py', stale)
    out('cm-stale-replace', status=200)
except ApiException as e:
    out('cm-stale-replace', status=e.status, reason=json.loads(e.body)['reason'])
v1.create_namespaced_config_map('py', {'metadata': {'name': 'doomed'}, 'data': {'k': 'v'}})
status = v1.delete_namespaced_config_map('doomed', 'py')
out('cm-deleted', kind=status.kind, status=status.status)
try:
    v1.read_namespaced_config_map('doomed', 'py')
except ApiException as e:
    out('cm-read-deleted', status=e.status, reason=json.loads(e.body)['reason'])

# Deployment: create, strategic merge patch of a container (merged by name, the other container
# and its other fields kept), merge patch (replicas), delete with Foreground propagation.
dep = apps.create_namespaced_deployment('py', {
    'metadata': {'name': 'web', 'labels': {'app': 'web'}},
    'spec': {
        'replicas': 1,
        'selector': {'matchLabels': {'app': 'web'}},
        'template': {
            'metadata': {'labels': {'app': 'web'}},
            'spec': {'containers': [
                {'name': 'app', 'image': 'nginx:1.25', 'ports': [{'containerPort': 80}], 'env': [{'name': 'A', 'value': '1'}]},
                {'name': 'side', 'image': 'busybox:1.36'},
            ]},
        },
    },
})
out('dep-created', generation=dep.metadata.generation, strategy=dep.spec.strategy.type)
dep = apps.patch_namespaced_deployment('web', 'py', {'spec': {'template': {'spec': {'containers': [
    {'name': 'app', 'image': 'nginx:1.26', 'env': [{'name': 'B', 'value': '2'}]},
]}}}})
out('dep-strategic', generation=dep.metadata.generation,
    containers=[[c.name, c.image, [e.name for e in (c.env or [])], [p.container_port for p in (c.ports or [])]] for c in dep.spec.template.spec.containers])
deployments = dyn.resources.get(api_version='apps/v1', kind='Deployment')
dep = deployments.patch(name='web', namespace='py', body={'spec': {'replicas': 3}, 'metadata': {'labels': {'app': None, 'env': 'test'}}}, content_type=MERGE)
out('dep-merge', generation=dep.metadata.generation, replicas=dep.spec.replicas, labels=dep.to_dict()['metadata']['labels'])
# The apiserver answers with the Deployment, marked; the typed client would read it as a V1Status.
dep = json.loads(apps.delete_namespaced_deployment('web', 'py', body=client.V1DeleteOptions(propagation_policy='Foreground'), _preload_content=False).data)
out('dep-deleting', kind=dep['kind'], finalizers=dep['metadata']['finalizers'], deleting='deletionTimestamp' in dep['metadata'])
for _ in range(100):
    try:
        apps.read_namespaced_deployment('web', 'py')
        time.sleep(0.05)
    except ApiException as e:
        out('dep-gone', status=e.status)
        break
