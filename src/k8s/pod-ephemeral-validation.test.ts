import { fieldErrorText } from './field-errors';
import { applyDefaults } from './object-defaults';
import { validatePodEphemeralContainersUpdate } from './pod-ephemeral-validation';

type Obj = Record<string, any>;

function pod(ephemeral: Obj[], annotations?: Obj): Obj {
  const p: Obj = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default', annotations }, spec: { containers: [{ name: 'app', image: 'nginx' }], initContainers: [{ name: 'init', image: 'busybox' }], ephemeralContainers: JSON.parse(JSON.stringify(ephemeral)) } };
  applyDefaults('Pod', p);
  return p;
}
const texts = (next: Obj, old: Obj) => validatePodEphemeralContainersUpdate(next, old).map(fieldErrorText);
const dbg = (extra: Obj = {}) => ({ name: 'dbg', image: 'busybox', ...extra });

describe('ValidatePodEphemeralContainersUpdate', () => {
  it('accepts a new ephemeral container targeting a container or init container', () => {
    expect(texts(pod([dbg({ targetContainerName: 'app' })]), pod([]))).toEqual([]);
    expect(texts(pod([dbg({ targetContainerName: 'init' })]), pod([]))).toEqual([]);
  });

  it('names are unique across every container list; the target must be a container', () => {
    expect(texts(pod([dbg({ name: 'app' }), dbg({ name: 'init' }), dbg(), dbg({ name: 'x', targetContainerName: 'dbg' })]), pod([]))).toEqual([
      'spec.ephemeralContainers[0].name: Duplicate value: "app"',
      'spec.ephemeralContainers[1].name: Duplicate value: "init"',
      'spec.ephemeralContainers[3].targetContainerName: Not found: "dbg"',
    ]);
  });

  it('the container rules apply, and the fields an ephemeral container may not set are Forbidden in Go struct order', () => {
    const bad = dbg({ image: '', lifecycle: { preStop: { exec: { command: ['x'] } } }, ports: [{ containerPort: 80 }], resources: { limits: { cpu: '1' } }, volumeMounts: [{ name: 'v', mountPath: '/v', subPath: 's' }] });
    const p = pod([bad]);
    p.spec.volumes = [{ name: 'v', emptyDir: {} }];
    expect(texts(p, pod([]))).toEqual([
      'spec.ephemeralContainers[0].image: Required value',
      'spec.ephemeralContainers[0].ports: Forbidden: cannot be set for an Ephemeral Container',
      'spec.ephemeralContainers[0].resources: Forbidden: cannot be set for an Ephemeral Container',
      'spec.ephemeralContainers[0].lifecycle: Forbidden: cannot be set for an Ephemeral Container',
      'spec.ephemeralContainers[0].volumeMounts[0].subPath: Forbidden: cannot be set for an Ephemeral Container',
    ]);
  });

  it('an existing ephemeral container may not be removed or changed', () => {
    const old = pod([dbg(), dbg({ name: 'two' })]);
    expect(texts(pod([dbg()]), old)).toEqual(['spec.ephemeralContainers: Forbidden: existing ephemeral containers "two" may not be removed\n']);
    expect(texts(pod([dbg({ image: 'alpine' }), dbg({ name: 'two' })]), old)).toEqual(['spec.ephemeralContainers[dbg]: Forbidden: existing ephemeral containers "dbg" may not be changed\n']);
    expect(texts(pod([dbg({ name: 'two' }), dbg()]), old)).toEqual([]);
  });

  it('a static pod takes none', () => {
    const old = pod([], { 'kubernetes.io/config.mirror': 'x' });
    old.spec.nodeName = 'n';
    const next = pod([dbg()], { 'kubernetes.io/config.mirror': 'x' });
    next.spec.nodeName = 'n';
    expect(texts(next, old)).toEqual([': Forbidden: static pods do not support ephemeral containers']);
  });
});
