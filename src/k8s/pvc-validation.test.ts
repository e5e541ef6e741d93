import { fieldErrorText, type FieldError } from './field-errors';
import { validatePersistentVolumeClaim, validatePersistentVolumeClaimSpec, validatePersistentVolumeClaimUpdate } from './pvc-validation';

type Obj = Record<string, any>;

const pvc = (spec: Obj, extra: Obj = {}): Obj => ({ metadata: { name: 'data', namespace: 'default' }, spec, ...extra });
const valid = () => ({ accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } });
const texts = (errs: FieldError[]) => errs.map(fieldErrorText);

describe('validatePersistentVolumeClaimSpec', () => {
  it('accepts a claim with an access mode and a storage request', () => {
    expect(validatePersistentVolumeClaim(pvc(valid()))).toEqual([]);
    expect(validatePersistentVolumeClaim(pvc({ ...valid(), storageClassName: 'fast', volumeMode: 'Block', dataSource: { kind: 'PersistentVolumeClaim', name: 'src' } }))).toEqual([]);
  });

  it('requires access modes', () => {
    const errs = validatePersistentVolumeClaim(pvc({ resources: { requests: { storage: '1Gi' } } }));
    expect(errs).toEqual([{ type: 'Required', field: 'spec.accessModes', detail: 'at least 1 access mode is required' }]);
    expect(texts(errs)).toEqual(['spec.accessModes: Required value: at least 1 access mode is required']);
  });

  it('supports the v1.26 access modes (ReadWriteOncePod is behind an off gate)', () => {
    expect(texts(validatePersistentVolumeClaim(pvc({ ...valid(), accessModes: ['ReadWriteOnce', 'ReadWriteOncePod', 'Shared'] })))).toEqual([
      'spec.accessModes: Unsupported value: "ReadWriteOncePod": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce"',
      'spec.accessModes: Unsupported value: "Shared": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce"',
      'spec.accessModes: Forbidden: may not use ReadWriteOncePod with other access modes',
    ]);
  });

  it('requires a positive storage request', () => {
    expect(texts(validatePersistentVolumeClaim(pvc({ accessModes: ['ReadWriteOnce'] })))).toEqual(['spec.resources[storage]: Required value']);
    expect(texts(validatePersistentVolumeClaim(pvc({ accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '0Gi' } } })))).toEqual([
      'spec.resources[storage]: Invalid value: "0": must be greater than zero',
    ]);
    expect(texts(validatePersistentVolumeClaim(pvc({ accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '-1Gi' } } })))).toEqual([
      'spec.resources[storage]: Invalid value: "-1Gi": must be greater than zero',
    ]);
  });

  it('checks volumeMode, storageClassName and data sources', () => {
    expect(texts(validatePersistentVolumeClaimSpec({ ...valid(), volumeMode: 'Raw', storageClassName: 'Fast_SSD', dataSource: { kind: 'VolumeSnapshot' } }, 'spec.volumeClaimTemplates[0].spec'))).toEqual([
      `spec.volumeClaimTemplates[0].spec.storageClassName: Invalid value: "Fast_SSD": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      'spec.volumeClaimTemplates[0].spec.volumeMode: Unsupported value: "Raw": supported values: "Block", "Filesystem"',
      'spec.volumeClaimTemplates[0].spec.dataSource.name: Required value',
      'spec.volumeClaimTemplates[0].spec.dataSource: Invalid value: "VolumeSnapshot"',
    ]);
    const errs = validatePersistentVolumeClaimSpec({ ...valid(), dataSource: { kind: 'PersistentVolumeClaim', name: 'a' }, dataSourceRef: { kind: 'PersistentVolumeClaim', name: 'b' } }, 'spec');
    expect(errs.map((e) => [e.type, e.field, e.detail])).toEqual([['Invalid', 'spec', 'must match dataSourceRef']]);
  });
});

describe('validatePersistentVolumeClaimUpdate', () => {
  const old = pvc(valid(), { status: { phase: 'Pending' } });

  it('accepts an unchanged spec and the volumeName set once', () => {
    expect(validatePersistentVolumeClaimUpdate(pvc(valid(), { status: { phase: 'Pending' } }), old)).toEqual([]);
    expect(validatePersistentVolumeClaimUpdate(pvc({ ...valid(), volumeName: 'pv-1' }), old)).toEqual([]);
    expect(validatePersistentVolumeClaimUpdate(pvc({ ...valid(), resources: { requests: { storage: '1024Mi' } } }), old)).toEqual([]);
  });

  it('the spec of a claim that is not bound is immutable, with a diff', () => {
    const errs = validatePersistentVolumeClaimUpdate(pvc({ ...valid(), accessModes: ['ReadWriteMany'] }), old);
    expect(errs.map((e) => [e.type, e.field])).toEqual([['Forbidden', 'spec']]);
    expect(errs[0]!.detail).toBe([
      'spec is immutable after creation except resources.requests for bound claims',
      '  core.PersistentVolumeClaimSpec{',
      '- \tAccessModes: []core.PersistentVolumeAccessMode{"ReadWriteOnce"},',
      '+ \tAccessModes: []core.PersistentVolumeAccessMode{"ReadWriteMany"},',
      '  \t... // 7 identical fields',
      '  }',
    ].join('\n'));
  });

  it('a bound claim may grow, not shrink', () => {
    const bound = pvc(valid(), { status: { phase: 'Bound' } });
    expect(validatePersistentVolumeClaimUpdate(pvc({ ...valid(), resources: { requests: { storage: '2Gi' } } }, { status: { phase: 'Bound' } }), bound)).toEqual([]);
    expect(texts(validatePersistentVolumeClaimUpdate(pvc({ ...valid(), resources: { requests: { storage: '512Mi' } } }, { status: { phase: 'Bound' } }), bound))).toEqual([
      'spec.resources.requests.storage: Forbidden: field can not be less than previous value',
    ]);
  });

  it('the create rules come first', () => {
    const errs = validatePersistentVolumeClaimUpdate(pvc({ resources: { requests: { storage: '1Gi' } } }), old);
    expect(errs.map((e) => e.field)).toEqual(['spec.accessModes', 'spec.accessModes', 'spec']);
  });

  it('a claim without a storage class may be given one (RetroactiveDefaultStorageClass), not another one', () => {
    expect(validatePersistentVolumeClaimUpdate(pvc({ ...valid(), storageClassName: 'standard' }), old)).toEqual([]);
    const classed = pvc({ ...valid(), storageClassName: 'standard' });
    expect(validatePersistentVolumeClaimUpdate(pvc({ ...valid(), storageClassName: 'fast' }), classed).map((e) => [e.type, e.field])).toEqual([['Forbidden', 'spec']]);
    const annotated = pvc(valid(), { metadata: { name: 'data', namespace: 'default', annotations: { 'volume.beta.kubernetes.io/storage-class': 'gold' } } });
    const next = pvc({ ...valid(), storageClassName: 'fast' }, { metadata: annotated.metadata });
    expect(validatePersistentVolumeClaimUpdate(next, annotated).map((e) => [e.type, e.field])).toEqual([['Forbidden', 'spec']]);
  });
});

describe('the claim selector', () => {
  it('is a label selector', () => {
    expect(texts(validatePersistentVolumeClaim(pvc({ ...valid(), selector: { matchExpressions: [{ key: 'tier', operator: 'In' }] } })))).toEqual([
      "spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
    ]);
  });
});
