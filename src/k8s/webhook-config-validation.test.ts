import { fieldErrorText, type FieldError } from './field-errors';
import { applyDefaults } from './object-defaults';
import {
  validateMutatingWebhookConfiguration,
  validateMutatingWebhookConfigurationUpdate,
  validateValidatingWebhookConfiguration,
  validateValidatingWebhookConfigurationUpdate,
} from './webhook-config-validation';

type Obj = Record<string, any>;
const texts = (errs: FieldError[]) => errs.map(fieldErrorText);
const DNS1123 = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const DNS1035 = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

const hook = (over: Obj = {}): Obj => ({
  name: 'check.example.com',
  clientConfig: { service: { namespace: 'hooks', name: 'checker', path: '/validate' } },
  rules: [{ operations: ['CREATE', 'UPDATE'], apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments', 'deployments/scale'] }],
  sideEffects: 'None',
  admissionReviewVersions: ['v1'],
  ...over,
});
/** What the apiserver validates: the object after v1 defaulting. */
function defaulted(kind: string, webhooks: Obj[]): Obj {
  const obj = { apiVersion: 'admissionregistration.k8s.io/v1', kind, metadata: { name: 'cfg' }, webhooks };
  applyDefaults(kind, obj);
  return obj;
}
const validating = (...webhooks: Obj[]) => texts(validateValidatingWebhookConfiguration(defaulted('ValidatingWebhookConfiguration', webhooks)));
const mutating = (...webhooks: Obj[]) => texts(validateMutatingWebhookConfiguration(defaulted('MutatingWebhookConfiguration', webhooks)));

describe('webhook configuration defaults (admissionregistration/v1)', () => {
  it('fills failurePolicy, matchPolicy, selectors, timeoutSeconds, rule scope and the service port; not sideEffects or admissionReviewVersions', () => {
    const obj = defaulted('ValidatingWebhookConfiguration', [{ name: 'a.b.c', clientConfig: { service: { namespace: 'n', name: 's' } }, rules: [{ operations: ['*'] }] }, { name: 'd.e.f', clientConfig: { url: 'https://x' } }]);
    expect(obj.webhooks).toEqual([
      { name: 'a.b.c', clientConfig: { service: { namespace: 'n', name: 's', port: 443 } }, rules: [{ operations: ['*'], scope: '*' }], failurePolicy: 'Fail', matchPolicy: 'Equivalent', namespaceSelector: {}, objectSelector: {}, timeoutSeconds: 10 },
      { name: 'd.e.f', clientConfig: { url: 'https://x' }, failurePolicy: 'Fail', matchPolicy: 'Equivalent', namespaceSelector: {}, objectSelector: {}, timeoutSeconds: 10 },
    ]);
  });

  it('a mutating webhook also gets reinvocationPolicy Never; set values are kept', () => {
    const obj = defaulted('MutatingWebhookConfiguration', [{ name: 'a.b.c', failurePolicy: 'Ignore', timeoutSeconds: 3, reinvocationPolicy: 'IfNeeded', objectSelector: { matchLabels: { a: 'b' } } }, { name: 'd.e.f' }]);
    expect(obj.webhooks[0]).toEqual({ name: 'a.b.c', failurePolicy: 'Ignore', timeoutSeconds: 3, reinvocationPolicy: 'IfNeeded', objectSelector: { matchLabels: { a: 'b' } }, matchPolicy: 'Equivalent', namespaceSelector: {} });
    expect(obj.webhooks[1].reinvocationPolicy).toBe('Never');
  });
});

describe('validateValidatingWebhookConfiguration', () => {
  it('accepts what a typical manifest sends', () => {
    expect(validating(hook(), hook({ name: 'other.example.com', clientConfig: { url: 'https://hooks.example.com:8443/check' }, namespaceSelector: { matchExpressions: [{ key: 'team', operator: 'In', values: ['a'] }] } }))).toEqual([]);
    expect(validating(hook({ rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/*'], scope: 'Namespaced' }] }))).toEqual([]);
    expect(validating(hook({ rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['*', 'pods/status'] }] }))).toEqual([]);
    expect(validating()).toEqual([]);
  });

  it('rules, policies, sideEffects, timeout, clientConfig and review versions, in the Go order', () => {
    expect(
      validating(
        hook({
          name: 'a.b',
          clientConfig: { url: 'http://u:p@x/y?q=1#f' },
          rules: [{ operations: ['*', 'CREATE', 'GET'], apiGroups: ['*', 'apps'], apiVersions: ['v1', ''], resources: ['*', 'pods', '*/*', 'pods/*', 'pods/log'], scope: 'X' }],
          sideEffects: 'Some',
          timeoutSeconds: 31,
          admissionReviewVersions: ['v1', 'v1', 'V2'],
        }),
        hook({ name: 'a.b', clientConfig: { service: { name: '', namespace: 'ns', path: 'a//B', port: 0 } }, admissionReviewVersions: ['v3'], failurePolicy: 'X', matchPolicy: 'Y', sideEffects: undefined }),
        hook({ name: 'x.y.z', clientConfig: { url: '://x' }, admissionReviewVersions: [] }),
      ),
    ).toEqual([
      'webhooks[0].name: Invalid value: "a.b": should be a domain with at least three segments separated by dots',
      `webhooks[0].rules[0].operations: Invalid value: []admissionregistration.OperationType{"*", "CREATE", "GET"}: if '*' is present, must not specify other operations`,
      'webhooks[0].rules[0].operations[2]: Unsupported value: "GET": supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE"',
      `webhooks[0].rules[0].apiGroups: Invalid value: []string{"*", "apps"}: if '*' is present, must not specify other API groups`,
      'webhooks[0].rules[0].apiVersions[1]: Required value',
      `webhooks[0].rules[0].resources[3]: Invalid value: "pods/*": if '*/*' is present, must not specify pods/*`,
      `webhooks[0].rules[0].resources[4]: Invalid value: "pods/log": if 'pods/*' is present, must not specify pods/log`,
      `webhooks[0].rules[0].resources: Invalid value: []string{"*", "pods", "*/*", "pods/*", "pods/log"}: if '*/*' is present, must not specify other resources`,
      `webhooks[0].rules[0].resources: Invalid value: []string{"*", "pods", "*/*", "pods/*", "pods/log"}: if '*' is present, must not specify other resources without subresources`,
      'webhooks[0].rules[0].scope: Unsupported value: "X": supported values: "*", "Cluster", "Namespaced"',
      'webhooks[0].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"',
      'webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds',
      "webhooks[0].clientConfig.url: Invalid value: \"http\": 'https' is the only allowed URL scheme; desired format: https://host[/path]",
      'webhooks[0].clientConfig.url: Invalid value: "u:p": user information is not permitted in the URL',
      'webhooks[0].clientConfig.url: Invalid value: "f": fragments are not permitted in the URL',
      'webhooks[0].clientConfig.url: Invalid value: "q=1": query parameters are not permitted in the URL',
      'webhooks[0].admissionReviewVersions[1]: Invalid value: "v1": duplicate version',
      `webhooks[0].admissionReviewVersions[2]: Invalid value: "V2": ${DNS1035}`,
      'webhooks[1].name: Invalid value: "a.b": should be a domain with at least three segments separated by dots',
      'webhooks[1].failurePolicy: Unsupported value: "X": supported values: "Fail", "Ignore"',
      'webhooks[1].matchPolicy: Unsupported value: "Y": supported values: "Equivalent", "Exact"',
      'webhooks[1].sideEffects: Required value: must specify one of None, NoneOnDryRun',
      // ValidateWebhookService gets the name and the namespace swapped, as in Go.
      'webhooks[1].clientConfig.service.namespace: Required value: service namespace is required',
      'webhooks[1].clientConfig.service.port: Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive',
      `webhooks[1].clientConfig.service.path: Invalid value: "a//B": must start with a '/'`,
      'webhooks[1].clientConfig.service.path: Invalid value: "a//B": segment[0] may not be empty',
      'webhooks[1].clientConfig.service.path: Invalid value: "a//B": segment[1] may not be empty',
      `webhooks[1].clientConfig.service.path: Invalid value: "a//B": segment[2]: ${DNS1123}`,
      'webhooks[1].admissionReviewVersions: Invalid value: []string{"v3"}: must include at least one of v1, v1beta1',
      'webhooks[1].name: Duplicate value: "a.b"',
      'webhooks[2].clientConfig.url: Required value: url must be a valid URL: parse "://x": missing protocol scheme; desired format: https://host[/path]',
      'webhooks[2].admissionReviewVersions: Required value: must specify one of v1, v1beta1',
    ]);
  });

  it('names: required, a DNS subdomain, three segments; clientConfig exactly one of url or service', () => {
    expect(validating(hook({ name: '' }), hook({ name: 'Bad.Name.io' }), hook({ clientConfig: {} }), hook({ clientConfig: { url: 'https://y' } }), hook({ name: 'both.example.com', clientConfig: { url: 'https://x', service: { namespace: 'n', name: 's' } } }))).toEqual([
      'webhooks[0].name: Required value',
      `webhooks[1].name: Invalid value: "Bad.Name.io": ${DNS1123}`,
      'webhooks[2].clientConfig: Required value: exactly one of url or service is required',
      'webhooks[3].name: Duplicate value: "check.example.com"',
      'webhooks[4].clientConfig: Required value: exactly one of url or service is required',
    ]);
  });

  it('URLs: host required, a bad port, a control character; service path //', () => {
    const url = (u: string) => hook({ clientConfig: { url: u } });
    expect(validating(url('https:///path'))).toEqual(['webhooks[0].clientConfig.url: Invalid value: "": host must be provided; desired format: https://host[/path]']);
    expect(validating(url('https://host:web/x'))).toEqual(['webhooks[0].clientConfig.url: Required value: url must be a valid URL: parse "https://host:web/x": invalid port ":web" after host; desired format: https://host[/path]']);
    expect(validating(url('https://host/\n'))).toEqual(['webhooks[0].clientConfig.url: Required value: url must be a valid URL: parse "https://host/\\n": net/url: invalid control character in URL; desired format: https://host[/path]']);
    expect(validating(hook({ clientConfig: { service: { namespace: 'n', name: 's', path: '//' } } }))).toEqual(['webhooks[0].clientConfig.service.path: Invalid value: "//": segment[0] may not be empty']);
  });

  it('selectors are label selectors; timeoutSeconds 0 is out of range', () => {
    expect(validating(hook({ namespaceSelector: { matchExpressions: [{ key: 'a', operator: 'Is' }] }, objectSelector: { matchLabels: { 'bad key': 'v' } }, timeoutSeconds: 0 }))).toEqual([
      'webhooks[0].timeoutSeconds: Invalid value: 0: the timeout value must be between 1 and 30 seconds',
      'webhooks[0].namespaceSelector.matchExpressions[0].operator: Invalid value: "Is": not a valid selector operator',
      expect.stringMatching(/^webhooks\[0\]\.objectSelector\.matchLabels: Invalid value: "bad key": name part must consist of/),
    ]);
  });
});

describe('validateMutatingWebhookConfiguration', () => {
  it('also checks reinvocationPolicy, after the selectors and before clientConfig', () => {
    expect(mutating(hook({ reinvocationPolicy: 'Always', clientConfig: {} }))).toEqual([
      'webhooks[0].reinvocationPolicy: Unsupported value: "Always": supported values: "IfNeeded", "Never"',
      'webhooks[0].clientConfig: Required value: exactly one of url or service is required',
    ]);
    expect(mutating(hook())).toEqual([]);
  });
});

describe('update: rules the stored object already breaks are relaxed', () => {
  const stored = (...webhooks: Obj[]) => defaulted('ValidatingWebhookConfiguration', webhooks);
  it('sideEffects Some/Unknown, unknown review versions and duplicate names stay allowed when the old object had them', () => {
    const old = stored(hook({ sideEffects: 'Unknown', admissionReviewVersions: ['v0'] }), hook());
    const next = stored(hook({ sideEffects: 'Some', admissionReviewVersions: ['v0'] }), hook());
    expect(texts(validateValidatingWebhookConfigurationUpdate(next, old))).toEqual([]);
    expect(texts(validateValidatingWebhookConfigurationUpdate(stored(hook({ sideEffects: 'Maybe' })), old))).toEqual(['webhooks[0].sideEffects: Unsupported value: "Maybe": supported values: "None", "NoneOnDryRun", "Some", "Unknown"']);
    expect(texts(validateValidatingWebhookConfigurationUpdate(stored(hook({ sideEffects: null })), old))).toEqual(['webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun, Some, Unknown']);
  });

  it('selector values that are no label values stay allowed only when the old object had such a value', () => {
    const badValue = (v: string) => hook({ objectSelector: { matchExpressions: [{ key: 'tier', operator: 'In', values: [v] }] } });
    const value = (v: string) => `webhooks[0].objectSelector.matchExpressions[0].values[0]: Invalid value: "${v}": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`;
    expect(validating(badValue('a b'))).toEqual([value('a b')]);
    expect(texts(validateValidatingWebhookConfigurationUpdate(stored(badValue('c d')), stored(badValue('a b'))))).toEqual([]);
    expect(texts(validateValidatingWebhookConfigurationUpdate(stored(badValue('c d')), stored(hook())))).toEqual([value('c d')]);
  });

  it('a valid old object keeps every create rule', () => {
    const old = stored(hook());
    expect(texts(validateValidatingWebhookConfigurationUpdate(stored(hook({ sideEffects: 'Some' }), hook()), old))).toEqual([
      'webhooks[0].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"',
      'webhooks[1].name: Duplicate value: "check.example.com"',
    ]);
    const mOld = defaulted('MutatingWebhookConfiguration', [hook()]);
    expect(texts(validateMutatingWebhookConfigurationUpdate(defaulted('MutatingWebhookConfiguration', [hook({ admissionReviewVersions: ['v9'] })]), mOld))).toEqual([
      'webhooks[0].admissionReviewVersions: Invalid value: []string{"v9"}: must include at least one of v1, v1beta1',
    ]);
  });
});

describe('webhook URLs as net/url parses them', () => {
  const urlErrors = (u: string) => validating(hook({ clientConfig: { url: u } }));
  const parseError = (u: string, err: string) => [`webhooks[0].clientConfig.url: Required value: url must be a valid URL: parse ${JSON.stringify(u)}: ${err}; desired format: https://host[/path]`];
  it('accepts an upper-case scheme, an IP with a port, an IPv6 literal and an escaped path', () => {
    for (const u of ['HTTPS://hooks.example.com/x', 'https://10.0.0.1:8443', 'https://[::1]:443/a', 'https://h.example.com/a%20b']) expect(urlErrors(u)).toEqual([]);
  });
  it('user info is shown as Userinfo.String() prints it; the fragment unescaped', () => {
    expect(urlErrors('https://us%65r:p%40ss@h.example.com/#a%20b')).toEqual([
      'webhooks[0].clientConfig.url: Invalid value: "user:p%40ss": user information is not permitted in the URL',
      'webhooks[0].clientConfig.url: Invalid value: "a b": fragments are not permitted in the URL',
    ]);
  });
  it("Parse's errors: a bad host character, a bad escape, a colon in a first segment, a missing ']'", () => {
    expect(urlErrors('https://my host/x')).toEqual(parseError('https://my host/x', 'invalid character " " in host name'));
    expect(urlErrors('https://h.example.com/%zz')).toEqual(parseError('https://h.example.com/%zz', 'invalid URL escape "%zz"'));
    expect(urlErrors('https://h%41.example.com/')).toEqual(parseError('https://h%41.example.com/', 'invalid URL escape "%41"'));
    expect(urlErrors('1http:x')).toEqual(parseError('1http:x', 'first path segment in URL cannot contain colon'));
    expect(urlErrors('https://[::1/x')).toEqual(parseError('https://[::1/x', "missing ']' in host"));
  });
  it('an opaque or relative URL has no host', () => {
    expect(urlErrors('https:hooks')).toEqual(['webhooks[0].clientConfig.url: Invalid value: "": host must be provided; desired format: https://host[/path]']);
    expect(urlErrors('/relative')).toEqual([
      "webhooks[0].clientConfig.url: Invalid value: \"\": 'https' is the only allowed URL scheme; desired format: https://host[/path]",
      'webhooks[0].clientConfig.url: Invalid value: "": host must be provided; desired format: https://host[/path]',
    ]);
  });
});
