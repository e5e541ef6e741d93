import { builtinTable } from './builtin-table-rows';

const NOW = Date.parse('2026-11-24T12:00:00Z');
const created = { creationTimestamp: '2026-11-24T11:00:00Z' };
const row = (apiVersion: string, kind: string, obj: Record<string, any>) => builtinTable({ apiVersion, kind })!.row(obj, NOW);

describe('built-in printers (pkg/printers/internalversion/printers.go)', () => {
  it('kinds without a printer serve knows: none', () => {
    expect(builtinTable({ apiVersion: 'v1', kind: 'LimitRange' })).toBeUndefined();
    expect(builtinTable({ apiVersion: 'example.com/v1', kind: 'Pod' })).toBeUndefined();
  });

  it('every kind: one cell per column', () => {
    const kinds = [['v1', 'Namespace'], ['v1', 'Pod'], ['v1', 'ConfigMap'], ['v1', 'Secret'], ['v1', 'Service'], ['apps/v1', 'Deployment'], ['apps/v1', 'ReplicaSet'], ['apps/v1', 'StatefulSet'], ['apps/v1', 'DaemonSet'], ['batch/v1', 'Job'], ['batch/v1', 'CronJob'], ['v1', 'Node'], ['v1', 'Event'], ['v1', 'ServiceAccount'], ['v1', 'Endpoints'], ['v1', 'PersistentVolumeClaim']];
    for (const [apiVersion, kind] of kinds) {
      const table = builtinTable({ apiVersion: apiVersion!, kind: kind! })!;
      expect({ kind, cells: table.row({ metadata: { name: 'x', ...created } }, NOW).cells.length }).toEqual({ kind, cells: table.columns.length });
    }
  });

  it('pods: init containers, waiting reasons, Completed with a running container, Terminating, row conditions', () => {
    const spec = { containers: [{ name: 'a' }, { name: 'b' }], initContainers: [{ name: 'i' }] };
    expect(row('v1', 'Pod', { metadata: { name: 'p', ...created }, spec, status: { phase: 'Pending', initContainerStatuses: [{ restartCount: 1, state: { waiting: { reason: 'PodInitializing' } } }] } }).cells.slice(1, 4)).toEqual(['0/2', 'Init:0/1', '1']);
    expect(row('v1', 'Pod', { metadata: { name: 'p', ...created }, spec, status: { phase: 'Running', containerStatuses: [{ ready: false, restartCount: 3, state: { waiting: { reason: 'CrashLoopBackOff' } } }, { ready: true, state: { running: {} } }] } }).cells.slice(1, 4)).toEqual(['1/2', 'CrashLoopBackOff', '3']);
    expect(row('v1', 'Pod', { metadata: { name: 'p', ...created, deletionTimestamp: '2026-11-24T11:59:00Z' }, spec, status: { phase: 'Running' } }).cells[2]).toBe('Terminating');
    expect(row('v1', 'Pod', { metadata: { name: 'p', ...created }, spec, status: { phase: 'Succeeded' } }).conditions).toEqual([{ type: 'Completed', status: 'True', reason: 'Succeeded', message: 'The pod has completed successfully.' }]);
  });

  it('services, endpoints, nodes, events, jobs, pvcs', () => {
    expect(row('v1', 'Service', { metadata: { name: 's', ...created }, spec: { type: 'LoadBalancer', clusterIPs: ['10.0.0.9'], ports: [{ port: 80, nodePort: 31000, protocol: 'TCP' }], selector: { b: '2', a: '1' } }, status: { loadBalancer: {} } }).cells)
      .toEqual(['s', 'LoadBalancer', '10.0.0.9', '<pending>', '80:31000/TCP', '60m', 'a=1,b=2']);
    const subsets = [{ addresses: [{ ip: '10.1.0.1' }, { ip: '10.1.0.2' }, { ip: '10.1.0.3' }, { ip: '10.1.0.4' }], ports: [{ port: 8080 }] }];
    expect(row('v1', 'Endpoints', { metadata: { name: 'e', ...created }, subsets }).cells[1]).toBe('10.1.0.1:8080,10.1.0.2:8080,10.1.0.3:8080 + 1 more...');
    expect(row('v1', 'Node', {
      metadata: { name: 'n', ...created, labels: { 'node-role.kubernetes.io/control-plane': '', 'kubernetes.io/role': 'edge' } },
      spec: { unschedulable: true },
      status: { conditions: [{ type: 'Ready', status: 'True' }], addresses: [{ type: 'InternalIP', address: '172.18.0.2' }], nodeInfo: { kubeletVersion: 'v1.26.4' } },
    }).cells).toEqual(['n', 'Ready,SchedulingDisabled', 'control-plane,edge', '60m', 'v1.26.4', '172.18.0.2', '<none>', '<unknown>', '<unknown>', '<unknown>']);
    expect(row('v1', 'Event', { metadata: { name: 'ev', ...created }, type: 'Normal', reason: 'Scheduled', involvedObject: { kind: 'Pod', name: 'p' }, source: { component: 'default-scheduler' }, message: ' hi \n', firstTimestamp: '2026-11-24T11:58:00Z' }).cells)
      .toEqual(['2m', 'Normal', 'Scheduled', 'pod/p', '', 'default-scheduler', 'hi', '2m', 1, 'ev']);
    expect(row('batch/v1', 'Job', { metadata: { name: 'j', ...created }, spec: { completions: 3, selector: { matchLabels: { 'controller-uid': 'u' } }, template: { spec: { containers: [{ name: 'c', image: 'busybox' }] } } }, status: { succeeded: 1, startTime: '2026-11-24T11:00:00Z', completionTime: '2026-11-24T11:00:42Z' } }).cells)
      .toEqual(['j', '1/3', '42s', '60m', 'c', 'busybox', 'controller-uid=u']);
    expect(row('v1', 'PersistentVolumeClaim', { metadata: { name: 'c', ...created }, spec: { volumeName: 'pv1', storageClassName: 'standard' }, status: { phase: 'Bound', capacity: { storage: '1Gi' }, accessModes: ['ReadWriteMany', 'ReadWriteOnce'] } }).cells)
      .toEqual(['c', 'Bound', 'pv1', '1Gi', 'RWO,RWX', 'standard', '60m', '<unset>']);
  });
});
