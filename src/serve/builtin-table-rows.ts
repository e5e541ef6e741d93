/**
 * Table rows of the common built-in kinds, computed as kube-apiserver's printers compute them
 * (kubernetes pkg/printers/internalversion/printers.go, v1.26: printPod, printDeployment, …) with
 * the wide cells included, as the apiserver's TableConvertor always asks for them. Ages are
 * `duration.HumanDuration` of the time since, at `now`.
 */
import { BUILTIN_TABLE_COLUMNS } from './builtin-table-columns';
import { humanDuration } from './table-cells';
import type { TableColumnDefinition } from './table-column';

type Obj = Record<string, any>;

export interface BuiltinRow {
  cells: unknown[];
  conditions?: unknown[];
}

export interface BuiltinTable {
  columns: readonly TableColumnDefinition[];
  row(obj: Obj, now: number): BuiltinRow;
}

/** The printer of `apiVersion/kind`, or undefined when the apiserver has none serve knows. */
export function builtinTable(typeMeta: { apiVersion: string; kind: string } | undefined): BuiltinTable | undefined {
  if (!typeMeta) return undefined;
  const key = `${typeMeta.apiVersion}/${typeMeta.kind}`;
  const columns = BUILTIN_TABLE_COLUMNS[key];
  const cells = CELLS[key];
  if (!columns || !cells) return undefined;
  return {
    columns,
    row: (obj, now) => {
      const row: BuiltinRow = { cells: cells(obj, now) };
      if (key === 'v1/Pod') {
        const phase = obj.status?.phase;
        if (phase === 'Succeeded') row.conditions = [{ type: 'Completed', status: 'True', reason: 'Succeeded', message: 'The pod has completed successfully.' }];
        if (phase === 'Failed') row.conditions = [{ type: 'Completed', status: 'True', reason: 'Failed', message: 'The pod failed.' }];
      }
      return row;
    },
  };
}

/** translateTimestampSince: `<unknown>` for a zero or missing time. */
function since(ts: unknown, now: number): string {
  const at = typeof ts === 'string' ? Date.parse(ts) : NaN;
  return Number.isNaN(at) ? '<unknown>' : humanDuration(now - at);
}

const age = (obj: Obj, now: number) => since(obj.metadata?.creationTimestamp, now);
const count = (value: unknown) => (Array.isArray(value) ? value.length : value && typeof value === 'object' ? Object.keys(value).length : 0);
const int = (value: unknown, otherwise = 0) => (typeof value === 'number' ? value : otherwise);
const orNone = (value: unknown) => (typeof value === 'string' && value !== '' ? value : '<none>');

/** labels.FormatLabels: `k=v` sorted by key, `<none>` when empty. */
function formatLabels(labels: unknown): string {
  const entries = labels && typeof labels === 'object' ? Object.entries(labels as Obj) : [];
  if (entries.length === 0) return '<none>';
  return entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => `${k}=${v}`).join(',');
}

/** metav1.LabelSelectorAsSelector(s).String(): requirements sorted by key; '' for none. */
function selectorString(selector: Obj | undefined): string {
  if (!selector) return '';
  const reqs: Array<[string, string]> = Object.entries(selector.matchLabels ?? {}).map(([k, v]) => [k, `${k}=${v}`]);
  for (const e of (selector.matchExpressions ?? []) as Obj[]) {
    const values = [...((e.values ?? []) as string[])].sort().join(',');
    const text = e.operator === 'In' ? `${e.key} in (${values})` : e.operator === 'NotIn' ? `${e.key} notin (${values})` : e.operator === 'Exists' ? e.key : e.operator === 'DoesNotExist' ? `!${e.key}` : undefined;
    if (text === undefined) return '<error>';
    reqs.push([e.key, text]);
  }
  return reqs.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, t]) => t).join(',');
}

/** metav1.FormatLabelSelector: the selector string, `<none>` when empty. */
const formatSelector = (selector: Obj | undefined) => selectorString(selector) || '<none>';

/** layoutContainerCells: names and images, comma-separated. */
function containerCells(template: Obj | undefined): [string, string] {
  const containers = (template?.spec?.containers ?? []) as Obj[];
  return [containers.map((c) => c.name ?? '').join(','), containers.map((c) => c.image ?? '').join(',')];
}

const CELLS: Record<string, (obj: Obj, now: number) => unknown[]> = {
  'v1/Namespace': (o, now) => [o.metadata?.name, o.status?.phase ?? '', age(o, now)],
  'v1/Pod': podCells,
  'v1/ConfigMap': (o, now) => [o.metadata?.name, count(o.data) + count(o.binaryData), age(o, now)],
  'v1/Secret': (o, now) => [o.metadata?.name, o.type ?? '', count(o.data), age(o, now)],
  'v1/Service': serviceCells,
  'apps/v1/Deployment': (o, now) => [
    o.metadata?.name,
    `${int(o.status?.readyReplicas)}/${int(o.spec?.replicas, 1)}`,
    int(o.status?.updatedReplicas),
    int(o.status?.availableReplicas),
    age(o, now),
    ...containerCells(o.spec?.template),
    selectorString(o.spec?.selector),
  ],
  'apps/v1/ReplicaSet': (o, now) => [
    o.metadata?.name, int(o.spec?.replicas, 1), int(o.status?.replicas), int(o.status?.readyReplicas), age(o, now),
    ...containerCells(o.spec?.template), formatSelector(o.spec?.selector),
  ],
  'apps/v1/StatefulSet': (o, now) => [o.metadata?.name, `${int(o.status?.readyReplicas)}/${int(o.spec?.replicas, 1)}`, age(o, now), ...containerCells(o.spec?.template)],
  'apps/v1/DaemonSet': (o, now) => [
    o.metadata?.name,
    int(o.status?.desiredNumberScheduled), int(o.status?.currentNumberScheduled), int(o.status?.numberReady),
    int(o.status?.updatedNumberScheduled), int(o.status?.numberAvailable),
    formatLabels(o.spec?.template?.spec?.nodeSelector), age(o, now),
    ...containerCells(o.spec?.template), formatSelector(o.spec?.selector),
  ],
  'batch/v1/Job': jobCells,
  'batch/v1/CronJob': (o, now) => [
    o.metadata?.name,
    o.spec?.schedule ?? '',
    typeof o.spec?.suspend === 'boolean' ? (o.spec.suspend ? 'True' : 'False') : '<unset>',
    count(o.status?.active),
    o.status?.lastScheduleTime ? since(o.status.lastScheduleTime, now) : '<none>',
    age(o, now),
    ...containerCells(o.spec?.jobTemplate?.spec?.template),
    formatSelector(o.spec?.jobTemplate?.spec?.selector),
  ],
  'v1/Node': nodeCells,
  'v1/Event': eventCells,
  'v1/ServiceAccount': (o, now) => [o.metadata?.name, count(o.secrets), age(o, now)],
  'v1/Endpoints': (o, now) => [o.metadata?.name, formatEndpoints(o.subsets), age(o, now)],
  'v1/PersistentVolumeClaim': pvcCells,
};

/** printPod: ready containers, the status reason (init containers, waiting/terminated states, Terminating), restarts. */
function podCells(pod: Obj, now: number): unknown[] {
  const status = pod.status ?? {};
  let restarts = 0;
  let lastRestart = NaN;
  let ready = 0;
  let reason: string = status.reason || status.phase || '';
  const noteRestart = (c: Obj) => {
    restarts += int(c.restartCount);
    const finished = Date.parse(c.lastState?.terminated?.finishedAt ?? '');
    if (!Number.isNaN(finished) && (Number.isNaN(lastRestart) || finished > lastRestart)) lastRestart = finished;
  };
  for (const c of (status.conditions ?? []) as Obj[]) if (c.type === 'PodScheduled' && c.reason === 'SchedulingGated') reason = 'SchedulingGated';
  let initializing = false;
  const inits = (status.initContainerStatuses ?? []) as Obj[];
  for (let i = 0; i < inits.length; i++) {
    const c = inits[i]!;
    noteRestart(c);
    const terminated = c.state?.terminated;
    const waiting = c.state?.waiting;
    if (terminated && int(terminated.exitCode) === 0) continue;
    if (terminated) reason = terminated.reason ? `Init:${terminated.reason}` : terminated.signal ? `Init:Signal:${terminated.signal}` : `Init:ExitCode:${int(terminated.exitCode)}`;
    else if (waiting?.reason && waiting.reason !== 'PodInitializing') reason = `Init:${waiting.reason}`;
    else reason = `Init:${i}/${(pod.spec?.initContainers ?? []).length}`;
    initializing = true;
    break;
  }
  if (!initializing) {
    restarts = 0;
    let hasRunning = false;
    const statuses = (status.containerStatuses ?? []) as Obj[];
    for (let i = statuses.length - 1; i >= 0; i--) {
      const c = statuses[i]!;
      noteRestart(c);
      const terminated = c.state?.terminated;
      if (c.state?.waiting?.reason) reason = c.state.waiting.reason;
      else if (terminated?.reason) reason = terminated.reason;
      else if (terminated) reason = terminated.signal ? `Signal:${terminated.signal}` : `ExitCode:${int(terminated.exitCode)}`;
      else if (c.ready && c.state?.running) {
        hasRunning = true;
        ready++;
      }
    }
    if (reason === 'Completed' && hasRunning) {
      const podReady = ((status.conditions ?? []) as Obj[]).some((c) => c.type === 'Ready' && c.status === 'True');
      reason = podReady ? 'Running' : 'NotReady';
    }
  }
  if (pod.metadata?.deletionTimestamp) reason = status.reason === 'NodeLost' ? 'Unknown' : 'Terminating';
  const restartText = Number.isNaN(lastRestart) ? String(restarts) : `${restarts} (${humanDuration(now - lastRestart)} ago)`;
  const gates = (pod.spec?.readinessGates ?? []) as Obj[];
  let gatesText = '<none>';
  if (gates.length > 0) {
    const trueGates = gates.filter((g) => ((status.conditions ?? []) as Obj[]).find((c) => c.type === g.conditionType)?.status === 'True').length;
    gatesText = `${trueGates}/${gates.length}`;
  }
  return [
    pod.metadata?.name, `${ready}/${(pod.spec?.containers ?? []).length}`, reason, restartText, age(pod, now),
    orNone(status.podIPs?.[0]?.ip), orNone(pod.spec?.nodeName), orNone(status.nominatedNodeName), gatesText,
  ];
}

/** printService: ClusterIPs[0], the external IPs by type, `port[:nodePort]/protocol`. */
function serviceCells(svc: Obj, now: number): unknown[] {
  const spec = svc.spec ?? {};
  const externalIPs = (spec.externalIPs ?? []) as string[];
  let external = '<unknown>';
  if (spec.type === 'ClusterIP' || spec.type === 'NodePort') external = externalIPs.length > 0 ? externalIPs.join(',') : '<none>';
  else if (spec.type === 'ExternalName') external = spec.externalName ?? '';
  else if (spec.type === 'LoadBalancer') {
    const ingress = [...new Set(((svc.status?.loadBalancer?.ingress ?? []) as Obj[]).map((i) => i.ip || i.hostname).filter(Boolean))].sort();
    const lb = ingress.join(',');
    external = externalIPs.length > 0 ? [...(lb ? lb.split(',') : []), ...externalIPs].join(',') : lb || '<pending>';
  }
  const ports = ((spec.ports ?? []) as Obj[]).map((p) => (p.nodePort > 0 ? `${p.port}:${p.nodePort}/${p.protocol}` : `${p.port}/${p.protocol}`)).join(',');
  return [svc.metadata?.name, spec.type ?? '', spec.clusterIPs?.[0] ?? '<none>', external, ports || '<none>', age(svc, now), formatLabels(spec.selector)];
}

/** printJob: `succeeded/completions` (or `/1 of parallelism`), the run's duration. */
function jobCells(job: Obj, now: number): unknown[] {
  const succeeded = int(job.status?.succeeded);
  const completions = job.spec?.completions;
  const parallelism = int(job.spec?.parallelism);
  const done = typeof completions === 'number' ? `${succeeded}/${completions}` : parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
  const start = Date.parse(job.status?.startTime ?? '');
  const end = Date.parse(job.status?.completionTime ?? '');
  const duration = Number.isNaN(start) ? '' : humanDuration((Number.isNaN(end) ? now : end) - start);
  return [job.metadata?.name, done, duration, age(job, now), ...containerCells(job.spec?.template), formatSelector(job.spec?.selector)];
}

/** printNode: Ready condition (or Unknown), SchedulingDisabled, roles from labels, wide node info. */
function nodeCells(node: Obj, now: number): unknown[] {
  const readyCondition = ((node.status?.conditions ?? []) as Obj[]).filter((c) => c.type === 'Ready').pop();
  const status = readyCondition ? [readyCondition.status === 'True' ? 'Ready' : 'NotReady'] : ['Unknown'];
  if (node.spec?.unschedulable) status.push('SchedulingDisabled');
  const roles = new Set<string>();
  for (const [k, v] of Object.entries((node.metadata?.labels ?? {}) as Obj)) {
    if (k.startsWith('node-role.kubernetes.io/') && k.length > 'node-role.kubernetes.io/'.length) roles.add(k.slice('node-role.kubernetes.io/'.length));
    else if (k === 'kubernetes.io/role' && v !== '') roles.add(String(v));
  }
  const address = (type: string) => ((node.status?.addresses ?? []) as Obj[]).find((a) => a.type === type)?.address ?? '<none>';
  const info = node.status?.nodeInfo ?? {};
  const unknown = (v: unknown) => (typeof v === 'string' && v !== '' ? v : '<unknown>');
  return [
    node.metadata?.name, status.join(','), [...roles].sort().join(',') || '<none>', age(node, now), info.kubeletVersion ?? '',
    address('InternalIP'), address('ExternalIP'), unknown(info.osImage), unknown(info.kernelVersion), unknown(info.containerRuntimeVersion),
  ];
}

/** printEvent (wide): last/first seen (eventTime and series for new-style events), the involved object, source. */
function eventCells(ev: Obj, now: number): unknown[] {
  const first = ev.firstTimestamp ? since(ev.firstTimestamp, now) : since(ev.eventTime, now);
  let last = ev.lastTimestamp ? since(ev.lastTimestamp, now) : first;
  let count = int(ev.count);
  if (ev.series) {
    last = since(ev.series.lastObservedTime, now);
    count = int(ev.series.count);
  } else if (count === 0) count = 1;
  const involved = ev.involvedObject ?? {};
  const kind = String(involved.kind ?? '').toLowerCase();
  const target = involved.name ? `${kind}/${involved.name}` : kind;
  const component = ev.source?.component || ev.reportingComponent || '';
  const host = ev.source?.host || ev.reportingInstance || '';
  return [last, ev.type ?? '', ev.reason ?? '', target, involved.fieldPath ?? '', host ? `${component}, ${host}` : component, String(ev.message ?? '').trim(), first, count, ev.metadata?.name];
}

/** formatEndpoints: up to three `ip:port` (or ip) entries, then ` + N more...`; `<none>` without subsets. */
function formatEndpoints(subsets: unknown): string {
  const list = (subsets ?? []) as Obj[];
  if (list.length === 0) return '<none>';
  const shown: string[] = [];
  let more = false;
  let total = 0;
  const add = (text: string) => {
    if (shown.length === 3) more = true;
    else shown.push(text);
  };
  for (const ss of list) {
    const addresses = (ss.addresses ?? []) as Obj[];
    const ports = (ss.ports ?? []) as Obj[];
    if (ports.length === 0) {
      total += addresses.length;
      for (const a of addresses) add(a.ip);
      continue;
    }
    for (const p of ports) {
      total += addresses.length;
      for (const a of addresses) add(String(a.ip).includes(':') ? `[${a.ip}]:${p.port}` : `${a.ip}:${p.port}`);
    }
  }
  return more ? `${shown.join(',')} + ${total - 3} more...` : shown.join(',');
}

/** printPersistentVolumeClaim: the bound volume's capacity and access modes, the claim's class. */
function pvcCells(pvc: Obj, now: number): unknown[] {
  const phase = pvc.metadata?.deletionTimestamp ? 'Terminating' : pvc.status?.phase ?? '';
  const bound = Boolean(pvc.spec?.volumeName);
  const modes = new Set((pvc.status?.accessModes ?? []) as string[]);
  const modeText = [['ReadWriteOnce', 'RWO'], ['ReadOnlyMany', 'ROX'], ['ReadWriteMany', 'RWX'], ['ReadWriteOncePod', 'RWOP']].filter(([m]) => modes.has(m!)).map(([, s]) => s).join(',');
  const storageClass = pvc.metadata?.annotations?.['volume.beta.kubernetes.io/storage-class'] ?? pvc.spec?.storageClassName ?? '';
  return [
    pvc.metadata?.name, phase, pvc.spec?.volumeName ?? '', bound ? pvc.status?.capacity?.storage ?? '0' : '', bound ? modeText : '',
    storageClass, age(pvc, now), pvc.spec?.volumeMode ?? '<unset>',
  ];
}
