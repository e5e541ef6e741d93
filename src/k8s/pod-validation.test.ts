import { fieldErrorText, toCause, type FieldError } from './field-errors';
import { applyDefaults } from './object-defaults';
import { validatePod, validatePodTemplateSpec } from './pod-validation';

type Obj = Record<string, any>;

/** A Pod as the apiserver validates it: decoded, then defaulted. */
function podErrors(spec: Obj): FieldError[] {
  const pod: Obj = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default' }, spec: JSON.parse(JSON.stringify(spec)) };
  applyDefaults('Pod', pod);
  return validatePod(pod);
}
const texts = (spec: Obj) => podErrors(spec).map(fieldErrorText);
const c = (extra: Obj = {}) => ({ name: 'app', image: 'nginx:1.25', ...extra });

describe('ValidatePodSpec: containers', () => {
  it('accepts a minimal Pod', () => {
    expect(podErrors({ containers: [c()] })).toEqual([]);
  });

  it('requires containers', () => {
    expect(podErrors({})).toEqual([{ type: 'Required', field: 'spec.containers', detail: '' }]);
    expect(texts({ containers: [] })).toEqual(['spec.containers: Required value']);
  });

  it('requires a name and an image, and a DNS label name', () => {
    expect(texts({ containers: [{}] })).toEqual(['spec.containers[0].name: Required value', 'spec.containers[0].image: Required value']);
    expect(texts({ containers: [c({ name: 'App_1' })] })).toEqual([
      `spec.containers[0].name: Invalid value: "App_1": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
    ]);
  });

  it('refuses duplicate names, across containers and init containers', () => {
    expect(podErrors({ containers: [c(), c()], initContainers: [c({ name: 'app' })] })).toEqual([
      { type: 'Duplicate', field: 'spec.containers[1].name', value: 'app' },
      { type: 'Duplicate', field: 'spec.initContainers[0].name', value: 'app' },
    ]);
    expect(texts({ containers: [c(), c()] })).toEqual(['spec.containers[1].name: Duplicate value: "app"']);
  });

  it('checks imagePullPolicy and terminationMessagePolicy values', () => {
    expect(texts({ containers: [c({ imagePullPolicy: 'Sometimes', terminationMessagePolicy: 'Stdout' })] })).toEqual([
      'spec.containers[0].terminationMessagePolicy: Unsupported value: "Stdout": supported values: "File", "FallbackToLogsOnError"',
      'spec.containers[0].imagePullPolicy: Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent", "Never"',
    ]);
    // An empty value is defaulted first, as Go's SetDefaults_Container does.
    expect(podErrors({ containers: [c({ imagePullPolicy: '' })] })).toEqual([]);
  });

  it('refuses a Pod image with surrounding whitespace, but not a template image', () => {
    expect(texts({ containers: [c({ image: ' nginx' })] })).toEqual(['spec.containers[0].image: Invalid value: " nginx": must not have leading or trailing whitespace']);
    const template = { spec: { containers: [c({ image: ' nginx', imagePullPolicy: 'Always', terminationMessagePolicy: 'File' })], restartPolicy: 'Always', dnsPolicy: 'ClusterFirst' } };
    expect(validatePodTemplateSpec(template, 'spec.template')).toEqual([]);
  });

  it('forbids lifecycle and probes on init containers', () => {
    expect(texts({ containers: [c()], initContainers: [c({ name: 'init', readinessProbe: { exec: { command: ['true'] } } })] })).toEqual([
      'spec.initContainers[0].readinessProbe: Forbidden: may not be set for init containers',
    ]);
  });
});

describe('ValidatePodSpec: ports', () => {
  it('requires containerPort, checks ranges, protocols and names', () => {
    const ports = [{ containerPort: 0 }, { containerPort: 70000, hostPort: -1, protocol: 'HTTP' }, { name: 'Web--', containerPort: 80 }, { name: 'http', containerPort: 81 }, { name: 'http', containerPort: 82 }];
    expect(texts({ containers: [c({ ports })] })).toEqual([
      'spec.containers[0].ports[0].containerPort: Required value',
      'spec.containers[0].ports[1].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
      'spec.containers[0].ports[1].hostPort: Invalid value: -1: must be between 1 and 65535, inclusive',
      'spec.containers[0].ports[1].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"',
      'spec.containers[0].ports[2].name: Invalid value: "Web--": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
      'spec.containers[0].ports[2].name: Invalid value: "Web--": must not contain consecutive hyphens',
      'spec.containers[0].ports[2].name: Invalid value: "Web--": must not begin or end with a hyphen',
      'spec.containers[0].ports[4].name: Duplicate value: "http"',
    ]);
  });

  it('refuses the same host port twice across containers', () => {
    expect(texts({ containers: [c({ ports: [{ containerPort: 80, hostPort: 8080 }] }), c({ name: 'b', ports: [{ containerPort: 81, hostPort: 8080 }] })] })).toEqual([
      'spec.containers[1].ports[0].hostPort: Duplicate value: "TCP//8080"',
    ]);
  });

  it('checks each init container\'s host ports on their own, at index 0 as Go names them', () => {
    const twice = { ports: [{ containerPort: 80, hostPort: 8080 }, { containerPort: 81, hostPort: 8080 }] };
    expect(texts({ containers: [c()], initContainers: [c({ name: 'i0' }), c({ name: 'i1', ...twice })] })).toEqual([
      'spec.initContainers[0].ports[1].hostPort: Duplicate value: "TCP//8080"',
    ]);
    expect(texts({ containers: [c()], initContainers: [c({ name: 'i0', ports: [{ containerPort: 80, hostPort: 8080 }] }), c({ name: 'i1', ports: [{ containerPort: 80, hostPort: 8080 }] })] })).toEqual([]);
  });
});

describe('ValidatePodSpec: env', () => {
  it('requires a name and applies the env var name rule', () => {
    expect(texts({ containers: [c({ env: [{ value: 'x' }, { name: '1ABC' }, { name: '..x' }] })] })).toEqual([
      'spec.containers[0].env[0].name: Required value',
      `spec.containers[0].env[1].name: Invalid value: "1ABC": a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')`,
      `spec.containers[0].env[2].name: Invalid value: "..x": must not start with '..'`,
    ]);
  });

  it('wants exactly one valueFrom source, and no value beside it', () => {
    const env = [
      { name: 'A', valueFrom: {} },
      { name: 'B', value: 'v', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
      { name: 'C', valueFrom: { fieldRef: { fieldPath: 'metadata.name' }, secretKeyRef: { name: 's', key: 'k' } } },
      { name: 'D', valueFrom: { fieldRef: { fieldPath: 'status.phase' } } },
      { name: 'E', valueFrom: { configMapKeyRef: { name: '', key: 'bad key' } } },
    ];
    expect(texts({ containers: [c({ env })] })).toEqual([
      'spec.containers[0].env[0].valueFrom: Invalid value: "": must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`',
      'spec.containers[0].env[1].valueFrom: Invalid value: "": may not be specified when `value` is not empty',
      'spec.containers[0].env[2].valueFrom: Invalid value: "": may not have more than one field specified at a time',
      'spec.containers[0].env[3].valueFrom.fieldRef.fieldPath: Unsupported value: "status.phase": supported values: "metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.serviceAccountName", "status.hostIP", "status.podIP", "status.podIPs"',
      `spec.containers[0].env[4].valueFrom.configMapKeyRef.name: Invalid value: "": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      `spec.containers[0].env[4].valueFrom.configMapKeyRef.key: Invalid value: "bad key": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')`,
    ]);
  });

  it('checks envFrom sources (the one-source error names the list)', () => {
    expect(texts({ containers: [c({ envFrom: [{ prefix: '1x' }, { configMapRef: {} }] })] })).toEqual([
      expect.stringMatching(/^spec\.containers\[0\]\.envFrom\[0\]\.prefix: Invalid value: "1x": a valid environment variable name/),
      'spec.containers[0].envFrom: Invalid value: "": must specify one of: `configMapRef` or `secretRef`',
      'spec.containers[0].envFrom[1].configMapRef.name: Required value',
    ]);
  });
});

describe('ValidatePodSpec: volumes and mounts', () => {
  it('requires a volume type, names, unique names and source fields', () => {
    const volumes = [
      { name: 'a', emptyDir: {}, configMap: { name: 'cm' } },
      { name: 'b', secret: {} },
      { name: 'c', persistentVolumeClaim: {} },
      { name: 'd', hostPath: {} },
      { name: 'Bad', configMap: {} },
      { name: 'e', emptyDir: {} },
      { name: 'e', emptyDir: {} },
    ];
    expect(texts({ containers: [c()], volumes })).toEqual([
      'spec.volumes[0].configMap: Forbidden: may not specify more than 1 volume type',
      'spec.volumes[1].secret.secretName: Required value',
      'spec.volumes[2].persistentVolumeClaim.claimName: Required value',
      'spec.volumes[3].hostPath.path: Required value',
      'spec.volumes[4].configMap.name: Required value',
      expect.stringMatching(/^spec\.volumes\[4\]\.name: Invalid value: "Bad": a lowercase RFC 1123 label/),
      'spec.volumes[6].name: Duplicate value: "e"',
    ]);
  });

  it('a volume with no source at all is defaulted to emptyDir; an empty name is required', () => {
    expect(texts({ containers: [c()], volumes: [{}] })).toEqual(['spec.volumes[0].name: Required value']);
  });

  it('checks projected sources', () => {
    const volumes = [{ name: 'p', projected: { sources: [{ configMap: { items: [{ key: 'k', path: '/abs' }] } }, { serviceAccountToken: { path: '', expirationSeconds: 60 } }] } }];
    expect(texts({ containers: [c()], volumes })).toEqual([
      'spec.volumes[0].projected.sources[0].configMap.name: Required value',
      'spec.volumes[0].projected.sources[0].configMap.items[0].path: Invalid value: "/abs": must be a relative path',
      'spec.volumes[0].projected.sources[1].serviceAccountToken.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes',
      'spec.volumes[0].projected.path: Required value',
    ]);
  });

  it('mounts must name a valid volume, have a path, and not repeat it', () => {
    const volumeMounts = [{ name: 'data', mountPath: '/data' }, { name: 'nope', mountPath: '/data' }, { name: 'bad', mountPath: '' }];
    expect(podErrors({ containers: [c({ volumeMounts })], volumes: [{ name: 'data', emptyDir: {} }, { name: 'bad', secret: {} }] }).map((e) => [e.type, e.field, e.value])).toEqual([
      ['Required', 'spec.volumes[1].secret.secretName', undefined],
      ['NotFound', 'spec.containers[0].volumeMounts[1].name', 'nope'],
      ['Invalid', 'spec.containers[0].volumeMounts[1].mountPath', '/data'],
      ['NotFound', 'spec.containers[0].volumeMounts[2].name', 'bad'],
      ['Required', 'spec.containers[0].volumeMounts[2].mountPath', undefined],
    ]);
    const notFound = podErrors({ containers: [c({ volumeMounts: [{ name: 'nope', mountPath: '/x' }] })] });
    expect(notFound.map(fieldErrorText)).toEqual(['spec.containers[0].volumeMounts[0].name: Not found: "nope"']);
    expect(toCause(notFound[0]!)).toEqual({ reason: 'FieldValueNotFound', message: 'Not found: "nope"', field: 'spec.containers[0].volumeMounts[0].name' });
  });
});

describe('ValidatePodSpec: tolerations', () => {
  it('an Exists toleration with a value shows the whole toleration as %#v prints it', () => {
    expect(texts({ containers: [c()], tolerations: [{ key: 'k', operator: 'Exists', value: 'v', effect: 'NoSchedule' }] })).toEqual([
      'spec.tolerations[0].operator: Invalid value: core.Toleration{Key:"k", Operator:"Exists", Value:"v", Effect:"NoSchedule", TolerationSeconds:(*int64)(nil)}: value must be empty when `operator` is \'Exists\'',
    ]);
  });
});

describe('ValidatePodSpec: resources', () => {
  it('requests may not exceed limits (message shows the canonical request, field the requests map)', () => {
    expect(texts({ containers: [c({ resources: { limits: { cpu: '500m', memory: '1Gi' }, requests: { cpu: '1000m', memory: '1024Mi' } } })] })).toEqual([
      'spec.containers[0].resources.requests: Invalid value: "1": must be less than or equal to cpu limit',
    ]);
  });

  it('refuses negative quantities and unknown resource names', () => {
    expect(texts({ containers: [c({ resources: { requests: { cpu: '-1', gpu: '1' } } })] })).toEqual([
      'spec.containers[0].resources.requests[cpu]: Invalid value: "-1": must be greater than or equal to 0',
      'spec.containers[0].resources.requests[gpu]: Invalid value: "gpu": must be a standard resource type or fully qualified',
      'spec.containers[0].resources.requests[gpu]: Invalid value: "gpu": must be a standard resource for containers',
    ]);
    expect(texts({ containers: [c({ resources: { limits: { storage: '1Gi' } } })] })).toEqual([
      'spec.containers[0].resources.limits[storage]: Invalid value: "storage": must be a standard resource for containers',
      // requests default to the limits.
      'spec.containers[0].resources.requests[storage]: Invalid value: "storage": must be a standard resource for containers',
    ]);
  });

  it('hugepages need equal requests and limits, and cpu or memory', () => {
    expect(texts({ containers: [c({ resources: { limits: { 'hugepages-2Mi': '4Mi' }, requests: { 'hugepages-2Mi': '2Mi' } } })] })).toEqual([
      'spec.containers[0].resources.requests: Invalid value: "2Mi": must be equal to hugepages-2Mi limit',
      'spec.containers[0].resources: Forbidden: HugePages require cpu or memory',
    ]);
  });
});

describe('ValidatePodSpec: probes', () => {
  it('wants exactly one handler', () => {
    expect(texts({ containers: [c({ livenessProbe: {}, readinessProbe: { exec: { command: ['a'] }, httpGet: { port: 80 } } })] })).toEqual([
      'spec.containers[0].livenessProbe: Required value: must specify a handler type',
      'spec.containers[0].readinessProbe.httpGet: Forbidden: may not specify more than 1 handler type',
    ]);
  });

  it('checks numbers and handler fields; liveness successThreshold must be 1', () => {
    expect(texts({ containers: [c({ livenessProbe: { httpGet: { port: 'Web_Port' }, initialDelaySeconds: -5, successThreshold: 2 } })] })).toEqual([
      'spec.containers[0].livenessProbe.httpGet.port: Invalid value: "Web_Port": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
      'spec.containers[0].livenessProbe.initialDelaySeconds: Invalid value: -5: must be greater than or equal to 0',
      'spec.containers[0].livenessProbe.successThreshold: Invalid value: 2: must be 1',
    ]);
  });

  it('validates the startup probe once, and a regular container\'s probes after its common rules and its name', () => {
    expect(texts({ containers: [c({ startupProbe: { tcpSocket: { port: 0 } } })] })).toEqual([
      'spec.containers[0].startupProbe.tcpSocket.port: Invalid value: 0: must be between 1 and 65535, inclusive',
    ]);
    const probed = c({ image: '', livenessProbe: { exec: {} }, ports: [{ containerPort: 0 }] });
    expect(texts({ containers: [c(), probed] })).toEqual([
      'spec.containers[1].image: Required value',
      'spec.containers[1].ports[0].containerPort: Required value',
      'spec.containers[1].name: Duplicate value: "app"',
      'spec.containers[1].livenessProbe.exec.command: Required value',
    ]);
  });

  it('does not validate an init container\'s probes: it forbids them, and names a duplicate init name once', () => {
    const init = c({ name: 'init', livenessProbe: { exec: {} }, lifecycle: { preStop: {} } });
    expect(texts({ containers: [c()], initContainers: [init, c({ name: 'init' })] })).toEqual([
      'spec.initContainers[0].lifecycle: Forbidden: may not be set for init containers',
      'spec.initContainers[0].livenessProbe: Forbidden: may not be set for init containers',
      'spec.initContainers[1].name: Duplicate value: "init"',
    ]);
  });
});

describe('ValidatePodSpec: pod fields', () => {
  it('checks restartPolicy and dnsPolicy values', () => {
    expect(texts({ containers: [c()], restartPolicy: 'Sometimes', dnsPolicy: 'Google' })).toEqual([
      'spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"',
      'spec.dnsPolicy: Unsupported value: "Google": supported values: "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"',
    ]);
    expect(texts({ containers: [c()], dnsPolicy: 'None' })).toEqual(['spec.dnsConfig: Required value: must provide `dnsConfig` when `dnsPolicy` is None']);
  });

  it('checks dnsConfig before readinessGates, as ValidatePodSpec appends them', () => {
    expect(podErrors({ containers: [c()], readinessGates: [{ conditionType: 'bad type' }], dnsConfig: { options: [{}] } }).map((e) => e.field)).toEqual([
      'spec.dnsConfig.options[0]',
      'spec.readinessGates[0].conditionType',
    ]);
  });

  it('checks dnsConfig nameservers as IPs and option names (Go texts)', () => {
    expect(texts({ containers: [c()], dnsConfig: { nameservers: ['10.0.0.10', 'dns.local'], options: [{ value: '2' }] } })).toEqual([
      'spec.dnsConfig.nameservers[1]: Invalid value: "dns.local": must be valid IP address',
      'spec.dnsConfig.options[0]: Required value: must not be empty',
    ]);
  });

  it('checks nodeSelector labels, names and ranges in Go order', () => {
    const spec = { containers: [c()], nodeSelector: { 'bad key!': 'v' }, serviceAccountName: 'SA', activeDeadlineSeconds: 0, hostname: 'a.b', subdomain: 'Sub' };
    expect(podErrors(spec).map((e) => [e.field, e.value])).toEqual([
      ['spec.nodeSelector', 'bad key!'],
      ['spec.serviceAccountName', 'SA'],
      ['spec.activeDeadlineSeconds', 0],
      ['spec.hostname', 'a.b'],
      ['spec.subdomain', 'Sub'],
    ]);
    expect(texts({ containers: [c()], activeDeadlineSeconds: 0 })).toEqual(['spec.activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647, inclusive']);
  });

  it('hostNetwork ports must use the same host port', () => {
    expect(texts({ containers: [c({ ports: [{ containerPort: 80, hostPort: 81 }] })], hostNetwork: true })).toEqual([
      'spec.containers[0].ports[0].containerPort: Invalid value: 80: must match `hostPort` when `hostNetwork` is true',
    ]);
  });

  it('checks tolerations', () => {
    expect(texts({ containers: [c()], tolerations: [{ operator: 'Equal', value: 'x' }, { key: 'k', operator: 'Maybe', tolerationSeconds: 5 }] })).toEqual([
      'spec.tolerations[0].operator: Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"',
      "spec.tolerations[1].effect: Invalid value: \"\": effect must be 'NoExecute' when `tolerationSeconds` is set",
      'spec.tolerations[1].operator: Unsupported value: "Maybe": supported values: "Equal", "Exists"',
    ]);
  });

  it('forbids ephemeral containers on create', () => {
    expect(texts({ containers: [c()], ephemeralContainers: [{ name: 'dbg', image: 'busybox' }] })).toEqual(['spec.ephemeralContainers: Forbidden: cannot be set on create']);
  });
});

describe('security contexts', () => {
  it('checks ids, sysctls, fsGroupChangePolicy and seccomp profiles, pod level after hostNetwork', () => {
    const spec = {
      containers: [c({ securityContext: { runAsUser: -1, seccompProfile: { type: 'Localhost' } } })],
      securityContext: { runAsGroup: -2, sysctls: [{ name: 'net.core.somaxconn', value: '1' }, { name: 'Bad!' }, { name: 'net.core.somaxconn' }], fsGroupChangePolicy: 'Sometimes', seccompProfile: {} },
      shareProcessNamespace: true,
      hostPID: true,
    };
    expect(texts(spec)).toEqual([
      'spec.containers[0].securityContext.runAsUser: Invalid value: -1: must be between 0 and 2147483647, inclusive',
      'spec.containers[0].securityContext.seccompProfile.localhostProfile: Required value: must be set when seccomp type is Localhost',
      'spec.securityContext.runAsGroup: Invalid value: -2: must be between 0 and 2147483647, inclusive',
      'spec.securityContext.shareProcessNamespace: Invalid value: true: ShareProcessNamespace and HostPID cannot both be enabled',
      'spec.securityContext.sysctls[1].name: Invalid value: "Bad!": must have at most 253 characters and match regex ^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$',
      'spec.securityContext.sysctls[2].name: Duplicate value: "net.core.somaxconn"',
      'spec.securityContext.fsGroupChangePolicy: Unsupported value: "Sometimes": supported values: "Always", "OnRootMismatch"',
      'spec.securityContext.seccompProfile.type: Required value: type is required when seccompProfile is set',
    ]);
  });
});

describe('Pod annotations', () => {
  it('a deletion cost must be an int32; a mirror Pod names its node', () => {
    const pod: Obj = {
      metadata: { name: 'p', annotations: { 'controller.kubernetes.io/pod-deletion-cost': '+5', 'kubernetes.io/config.mirror': 'x' } },
      spec: { containers: [c({ imagePullPolicy: 'Always', terminationMessagePolicy: 'File' })], restartPolicy: 'Always', dnsPolicy: 'ClusterFirst' },
    };
    expect(validatePod(pod).map(fieldErrorText)).toEqual([
      'metadata.annotations[kubernetes.io/config.mirror]: Invalid value: "x": must set spec.nodeName if mirror pod annotation is set',
      'metadata.annotations[controller.kubernetes.io/pod-deletion-cost]: Invalid value: "+5": must be a 32bit integer',
    ]);
    pod.metadata.annotations = { 'controller.kubernetes.io/pod-deletion-cost': '-12' };
    expect(validatePod(pod)).toEqual([]);
    pod.metadata.annotations = { 'controller.kubernetes.io/pod-deletion-cost': '2147483648' };
    expect(validatePod(pod)).toHaveLength(1);
  });
});

describe('ValidatePodTemplateSpec', () => {
  it('names template labels `<path>.labels`, as Go does, and validates the spec at `<path>.spec`', () => {
    const template: Obj = { metadata: { labels: { app: 'bad value!' } }, spec: { containers: [{ name: 'x' }] } };
    const obj: Obj = { spec: { template } };
    applyDefaults('Deployment', obj);
    expect(validatePodTemplateSpec(obj.spec.template, 'spec.template').map((e) => e.field)).toEqual(['spec.template.labels', 'spec.template.spec.containers[0].image']);
  });
});
