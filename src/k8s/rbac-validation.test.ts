import { fieldErrorText, type FieldError } from './field-errors';
import {
  validateClusterRole,
  validateClusterRoleBinding,
  validateClusterRoleBindingUpdate,
  validateRole,
  validateRoleBinding,
  validateRoleBindingUpdate,
} from './rbac-validation';

const texts = (errs: FieldError[]) => errs.map(fieldErrorText);
const ref = (kind: string, name: string, apiGroup = 'rbac.authorization.k8s.io') => ({ apiGroup, kind, name });

describe('Role and ClusterRole rules', () => {
  it('accepts resource rules and ClusterRole non-resource rules as kubectl makes them', () => {
    expect(validateRole({ rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }] })).toEqual([]);
    expect(validateClusterRole({ rules: [{ nonResourceURLs: ['/healthz', '/metrics'], verbs: ['get'] }] })).toEqual([]);
    expect(validateRole({})).toEqual([]);
  });

  it('verbs required; apiGroups and resources required for resource rules, in that order', () => {
    expect(texts(validateRole({ rules: [{}] }))).toEqual([
      'rules[0].verbs: Required value: verbs must contain at least one value',
      'rules[0].apiGroups: Required value: resource rules must supply at least one api group',
      'rules[0].resources: Required value: resource rules must supply at least one resource',
    ]);
  });

  it('resourceNames only with one resource', () => {
    const errs = validateRole({ rules: [{ apiGroups: [''], resources: ['pods', 'secrets'], resourceNames: ['a'], verbs: ['get'] }] });
    expect(errs).toEqual([{ type: 'Required', field: 'rules[0].resourceNames', detail: 'resource names cannot apply to multiple resources' }]);
  });

  it('non-resource URLs: not in a Role, not with resources', () => {
    expect(texts(validateRole({ rules: [{ nonResourceURLs: ['/x'], resources: ['pods'], verbs: ['get'] }] }))).toEqual([
      'rules[0].nonResourceURLs: Invalid value: []string{"/x"}: namespaced rules cannot apply to non-resource URLs',
      'rules[0].nonResourceURLs: Invalid value: []string{"/x"}: rules cannot apply to both regular resources and non-resource URLs',
    ]);
    expect(texts(validateClusterRole({ rules: [{ nonResourceURLs: ['/x'], apiGroups: [''], verbs: ['get'] }] }))).toEqual([
      'rules[0].nonResourceURLs: Invalid value: []string{"/x"}: rules cannot apply to both regular resources and non-resource URLs',
    ]);
  });

  it('aggregationRule: at least one selector, each a valid label selector', () => {
    expect(validateClusterRole({ aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'rbac.example.com/aggregate-to-view': 'true' } }] } })).toEqual([]);
    expect(texts(validateClusterRole({ aggregationRule: {} }))).toEqual([
      'aggregationRule.clusterRoleSelectors: Required value: at least one clusterRoleSelector required if aggregationRule is non-nil',
    ]);
    expect(texts(validateClusterRole({ aggregationRule: { clusterRoleSelectors: [{ matchExpressions: [{ key: 'a', operator: 'Maybe' }] }] } }))).toEqual([
      'aggregationRule.clusterRoleSelectors[0].matchExpressions[0].operator: Invalid value: "Maybe": not a valid selector operator',
      'aggregationRule.clusterRoleSelectors[0]: Invalid value: "null": invalid label selector.',
    ]);
  });
});

describe('RoleBinding and ClusterRoleBinding', () => {
  it('accepts bindings as kubectl create rolebinding makes them, and defaults subject apiGroups', () => {
    const subjects = [
      { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'alice' },
      { kind: 'Group', name: 'devs' },
      { kind: 'ServiceAccount', name: 'builder', namespace: 'default' },
      { kind: 'ServiceAccount', name: 'local' },
    ];
    expect(validateRoleBinding({ roleRef: ref('Role', 'reader'), subjects })).toEqual([]);
    expect(validateRoleBinding({ roleRef: { kind: 'ClusterRole', name: 'view' } })).toEqual([]);
    expect(validateClusterRoleBinding({ roleRef: ref('ClusterRole', 'view'), subjects: subjects.slice(0, 3) })).toEqual([]);
  });

  it('roleRef: apiGroup, kind and name, in Go\'s order', () => {
    expect(texts(validateRoleBinding({ roleRef: { apiGroup: 'example.com', kind: 'Policy' } }))).toEqual([
      'roleRef.apiGroup: Unsupported value: "example.com": supported values: "rbac.authorization.k8s.io"',
      'roleRef.kind: Unsupported value: "Policy": supported values: "Role", "ClusterRole"',
      'roleRef.name: Required value',
    ]);
    expect(texts(validateClusterRoleBinding({ roleRef: ref('Role', 'a/b') }))).toEqual([
      'roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"',
      "roleRef.name: Invalid value: \"a/b\": may not contain '/'",
    ]);
  });

  it('subjects: name, kind, apiGroup per kind, a ServiceAccount\'s namespace in a ClusterRoleBinding', () => {
    const subjects = [
      { kind: 'ServiceAccount', name: 'Bad_Name', apiGroup: 'rbac.authorization.k8s.io' },
      { kind: 'User', name: '' },
      { kind: 'Group', name: 'g', apiGroup: 'v1' },
      { kind: 'Robot', name: 'r' },
    ];
    expect(texts(validateClusterRoleBinding({ roleRef: ref('ClusterRole', 'view'), subjects }))).toEqual([
      expect.stringMatching(/^subjects\[0\]\.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain/),
      'subjects[0].apiGroup: Unsupported value: "rbac.authorization.k8s.io": supported values: ""',
      'subjects[0].namespace: Required value',
      'subjects[1].name: Required value',
      'subjects[1].name: Invalid value: "": user name cannot be empty',
      'subjects[2].apiGroup: Unsupported value: "v1": supported values: "rbac.authorization.k8s.io"',
      'subjects[3].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"',
    ]);
  });

  it('update: roleRef may not change (a defaulted apiGroup is no change); subjects may', () => {
    const old = { roleRef: ref('Role', 'reader'), subjects: [{ kind: 'User', name: 'a' }] };
    expect(validateRoleBindingUpdate({ roleRef: { kind: 'Role', name: 'reader' }, subjects: [] }, old)).toEqual([]);
    expect(texts(validateRoleBindingUpdate({ roleRef: ref('Role', 'writer') }, old))).toEqual([
      'roleRef: Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.k8s.io", Kind:"Role", Name:"writer"}: cannot change roleRef',
    ]);
    expect(texts(validateClusterRoleBindingUpdate({ roleRef: ref('ClusterRole', '') }, { roleRef: ref('ClusterRole', 'view') }))).toEqual([
      'roleRef.name: Required value',
      'roleRef: Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.k8s.io", Kind:"ClusterRole", Name:""}: cannot change roleRef',
    ]);
  });
});
