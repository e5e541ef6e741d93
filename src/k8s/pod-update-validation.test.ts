import { fieldErrorText } from './field-errors';
import { applyDefaults } from './object-defaults';
import { POD_UPDATE_FORBIDDEN, validatePodUpdate } from './pod-update-validation';

type Obj = Record<string, any>;

function pod(spec: Obj): Obj {
  const p: Obj = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default' }, spec: JSON.parse(JSON.stringify(spec)) };
  applyDefaults('Pod', p);
  return p;
}
const base = { containers: [{ name: 'app', image: 'nginx:1.25', ports: [{ containerPort: 80 }] }] };
const updated = (change: (spec: Obj) => void): Obj => {
  const p = pod(base);
  change(p.spec);
  return p;
};
const texts = (next: Obj, old: Obj = pod(base)) => validatePodUpdate(next, old).map(fieldErrorText);

describe('ValidatePodUpdate', () => {
  it('allows an unchanged spec and an image change', () => {
    expect(texts(pod(base))).toEqual([]);
    expect(texts(updated((s) => (s.containers[0].image = 'nginx:1.26')))).toEqual([]);
  });

  it('requires the image on update too', () => {
    expect(texts(updated((s) => (s.containers[0].image = '')))).toEqual(['spec.containers[0].image: Required value', 'spec.containers[0].image: Required value']);
  });

  it('forbids adding the mirror pod annotation, and checks the Pod annotations a second time (ValidatePodSpecificAnnotationUpdates)', () => {
    const next = pod(base);
    next.metadata.annotations = { 'kubernetes.io/config.mirror': 'x', 'controller.kubernetes.io/pod-deletion-cost': 'ten' };
    expect(texts(next)).toEqual([
      'metadata.annotations[kubernetes.io/config.mirror]: Invalid value: "x": must set spec.nodeName if mirror pod annotation is set',
      'metadata.annotations[controller.kubernetes.io/pod-deletion-cost]: Invalid value: "ten": must be a 32bit integer',
      'metadata.annotations[kubernetes.io/config.mirror]: Forbidden: may not add mirror pod annotation',
      'metadata.annotations[kubernetes.io/config.mirror]: Invalid value: "x": must set spec.nodeName if mirror pod annotation is set',
      'metadata.annotations[controller.kubernetes.io/pod-deletion-cost]: Invalid value: "ten": must be a 32bit integer',
    ]);
    const old = pod(base);
    old.metadata.annotations = { 'container.apparmor.security.beta.kubernetes.io/app': 'runtime/default' };
    expect(texts(pod(base), old)).toEqual(['metadata.annotations[container.apparmor.security.beta.kubernetes.io/app]: Forbidden: may not remove or update AppArmor annotations']);
  });

  it('forbids adding or removing containers, and stops there', () => {
    expect(texts(updated((s) => s.containers.push({ name: 'b', image: 'busybox', imagePullPolicy: 'Always', terminationMessagePolicy: 'File' })))).toEqual([
      'spec.containers: Forbidden: pod updates may not add or remove containers',
    ]);
  });

  it('forbids any other change with the fixed message', () => {
    const errs = validatePodUpdate(updated((s) => (s.containers[0].ports[0].containerPort = 8080)), pod(base));
    expect(errs).toEqual([{ type: 'Forbidden', field: 'spec', detail: POD_UPDATE_FORBIDDEN }]);
    expect(fieldErrorText(errs[0]!)).toBe(
      'spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`, `spec.initContainers[*].image`, `spec.activeDeadlineSeconds`, `spec.tolerations` (only additions to existing tolerations) or `spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
    );
    expect(texts(updated((s) => (s.restartPolicy = 'Never')))).toEqual([`spec: Forbidden: ${POD_UPDATE_FORBIDDEN}`]);
  });

  it('treats absent and zero values of non-pointer fields as the same spec', () => {
    expect(texts(updated((s) => (s.hostNetwork = false)))).toEqual([]);
    expect(texts(updated((s) => (s.nodeSelector = {})))).toEqual([]);
  });

  it('compares quantities by value', () => {
    const old = pod({ containers: [{ ...base.containers[0], resources: { limits: { cpu: '1000m', memory: '1Gi' } } }] });
    expect(texts(pod({ containers: [{ ...base.containers[0], resources: { limits: { cpu: '1', memory: '1024Mi' } } }] }), old)).toEqual([]);
    expect(texts(pod({ containers: [{ ...base.containers[0], resources: { limits: { cpu: '2', memory: '1Gi' } } }] }), old)).toEqual([`spec: Forbidden: ${POD_UPDATE_FORBIDDEN}`]);
  });

  it('lets activeDeadlineSeconds be set or lowered, not raised or removed', () => {
    const withDeadline = updated((s) => (s.activeDeadlineSeconds = 100));
    expect(texts(withDeadline)).toEqual([]);
    expect(texts(updated((s) => (s.activeDeadlineSeconds = 50)), withDeadline)).toEqual([]);
    expect(texts(updated((s) => (s.activeDeadlineSeconds = 200)), withDeadline)).toEqual(['spec.activeDeadlineSeconds: Invalid value: 200: must be less than or equal to previous value']);
    expect(texts(pod(base), withDeadline)).toEqual(['spec.activeDeadlineSeconds: Invalid value: "null": must not update from a positive integer to nil value']);
  });

  it('lets tolerations be added, not changed', () => {
    const tolerated = { ...base, tolerations: [{ key: 'a', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }] };
    const old = pod(tolerated);
    const added = pod({ ...tolerated, tolerations: [...tolerated.tolerations, { key: 'k', operator: 'Exists' }] });
    expect(texts(added, old)).toEqual([]);
    expect(texts(pod({ ...tolerated, tolerations: [{ ...tolerated.tolerations[0], tolerationSeconds: 60 }] }), old)).toEqual([]);
    const changed = pod({ ...tolerated, tolerations: [{ ...tolerated.tolerations[0], key: 'other' }] });
    expect(texts(changed, old)).toEqual(['spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds']);
  });

  it('lets terminationGracePeriodSeconds go from negative to 1', () => {
    const old = updated((s) => (s.terminationGracePeriodSeconds = -5));
    expect(texts(updated((s) => (s.terminationGracePeriodSeconds = 1)), old)).toEqual([]);
    expect(texts(updated((s) => (s.terminationGracePeriodSeconds = 2)), old)).toEqual([`spec: Forbidden: ${POD_UPDATE_FORBIDDEN}`]);
  });
});
