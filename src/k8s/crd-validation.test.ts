import { crdNameValidator, validateCustomResourceDefinition, validateCustomResourceDefinitionUpdate } from './crd-validation';
import { fieldErrorText, type FieldError } from './field-errors';
import { validateObjectMeta } from './object-meta-validation';
import { applyDefaults } from './object-defaults';

type Obj = Record<string, any>;

const texts = (errs: FieldError[]) => errs.map(fieldErrorText);
const DNS1035 = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const DNS1123 = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const VERSION_V1 = (over = '') =>
  `apiextensions.CustomResourceDefinitionVersion{Name:"v1", Served:true, Storage:${over || 'true'}, Deprecated:false, DeprecationWarning:(*string)(nil), Schema:(*apiextensions.CustomResourceValidation)(nil), Subresources:(*apiextensions.CustomResourceSubresources)(nil), AdditionalPrinterColumns:[]apiextensions.CustomResourceColumnDefinition(nil)}`;

const SCHEMA = { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'string' } } }, status: { type: 'object', properties: { ready: { type: 'boolean' } } } } };

function version(over: Obj = {}): Obj {
  return { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: SCHEMA }, ...over };
}

/** A defaulted v1 CRD (what the apiserver validates), spec fields overridden by `over`. */
function crd(over: Obj = {}, name = 'widgets.example.com'): Obj {
  const obj = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name },
    spec: { group: 'example.com', names: { plural: 'widgets', kind: 'Widget' }, scope: 'Namespaced', versions: [version()], ...over },
  };
  applyDefaults('CustomResourceDefinition', obj);
  return obj;
}

const validate = (over: Obj = {}) => texts(validateCustomResourceDefinition(crd(over)));
const withSchema = (openAPIV3Schema: Obj, versionOver: Obj = {}) => validate({ versions: [version({ schema: { openAPIV3Schema }, ...versionOver })] });
const S = 'spec.validation.openAPIV3Schema';

describe('validateCustomResourceDefinition: the spec', () => {
  it('accepts a well-formed CRD', () => {
    expect(validate()).toEqual([]);
  });

  it('checks the group and scope', () => {
    expect(validate({ group: '', scope: '' })).toEqual(['spec.group: Required value', 'spec.scope: Required value']);
    expect(validate({ group: 'Example.com', scope: 'Global' })).toEqual([
      `spec.group: Invalid value: "Example.com": ${DNS1123}`,
      'spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced"',
    ]);
    expect(validate({ group: 'example' })).toEqual(['spec.group: Invalid value: "example": should be a domain with at least one dot']);
  });

  it('requires the names and checks their format', () => {
    expect(validate({ names: { plural: 'Widgets', kind: 'Wid_get', shortNames: ['w1', 'W'], categories: ['all'] } })).toEqual([
      `spec.names.plural: Invalid value: "Widgets": ${DNS1035}`,
      `spec.names.singular: Invalid value: "wid_get": ${DNS1035}`,
      `spec.names.kind: Invalid value: "Wid_get": may have mixed case, but should otherwise match: ${DNS1035}`,
      `spec.names.listKind: Invalid value: "Wid_getList": may have mixed case, but should otherwise match: ${DNS1035}`,
      `spec.names.shortNames[1]: Invalid value: "W": ${DNS1035}`,
    ]);
    expect(validate({ names: { plural: 'widgets', kind: 'Widget', listKind: 'Widget' } })).toEqual(['spec.names.listKind: Invalid value: "Widget": kind and listKind may not be the same']);
    expect(validate({ names: {} })).toEqual(['spec.names.plural: Required value', 'spec.names.singular: Required value', 'spec.names.kind: Required value', 'spec.names.listKind: Required value']);
  });

  it('requires one storage version, unique DNS-1035 version names and a schema per version', () => {
    expect(validate({ versions: [] })).toEqual([
      'spec.versions: Invalid value: []apiextensions.CustomResourceDefinitionVersion{}: must have exactly one version marked as storage version',
      'status.storedVersions: Invalid value: []string(nil): must have at least one stored version',
    ]);
    expect(validate({ versions: [version({ storage: false })] })).toEqual([
      `spec.versions: Invalid value: []apiextensions.CustomResourceDefinitionVersion{${VERSION_V1('false')}}: must have exactly one version marked as storage version`,
      'status.storedVersions: Invalid value: []string(nil): must have at least one stored version',
    ]);
    expect(validate({ versions: [version({ name: 'V1' }), version({ name: 'v2', storage: false, schema: undefined })] })).toEqual([
      'spec.versions[1].schema.openAPIV3Schema: Required value: schemas are required',
      `spec.versions[0].name: Invalid value: "V1": ${DNS1035}`,
      `spec.version: Invalid value: "V1": ${DNS1035}`,
    ]);
    const twice = validate({ versions: [version(), version({ storage: false })] });
    expect(twice).toHaveLength(1);
    expect(twice[0]).toMatch(/^spec\.versions: Invalid value: \[\]apiextensions\.CustomResourceDefinitionVersion\{.*\}: must contain unique version names$/);
  });

  it('reports a schema error per version when the versions differ, at spec.validation when they are identical', () => {
    const bad = { type: 'object', properties: { spec: { properties: { size: { type: 'string' } } } } };
    expect(validate({ versions: [version({ schema: { openAPIV3Schema: bad } }), version({ name: 'v2', storage: false })] })).toEqual([
      'spec.versions[0].schema.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields',
    ]);
    expect(validate({ versions: [version({ schema: { openAPIV3Schema: bad } }), version({ name: 'v2', storage: false, schema: { openAPIV3Schema: bad } })] })).toEqual([
      `${S}.properties[spec].type: Required value: must not be empty for specified object fields`,
    ]);
  });

  it('checks the deprecation warning, scale paths and printer columns', () => {
    expect(validate({ versions: [version({ deprecationWarning: 'old' })] })).toEqual(['spec.versions[0].deprecationWarning: Invalid value: "old": can only be set for deprecated versions']);
    expect(validate({ versions: [version({ subresources: { status: {}, scale: { specReplicasPath: 'spec.replicas', statusReplicasPath: '.spec.replicas', labelSelectorPath: '.metadata.labels' } } })] })).toEqual([
      'spec.subresources.scale.specReplicasPath: Invalid value: "spec.replicas": must be a simple json path starting with .',
      'spec.subresources.scale.statusReplicasPath: Invalid value: ".spec.replicas": should be a json path under .status',
      'spec.subresources.scale.labelSelectorPath: Invalid value: ".metadata.labels": should be a json path under either .spec or .status',
    ]);
    expect(validate({ versions: [version({ additionalPrinterColumns: [{ name: '', type: 'int', format: 'uuid', jsonPath: 'spec.size' }, { name: 'Age', jsonPath: '' }] })] })).toEqual([
      'spec.additionalPrinterColumns[0].name: Required value',
      'spec.additionalPrinterColumns[0].type: Invalid value: "int": must be one of boolean,date,integer,number,string',
      'spec.additionalPrinterColumns[0].format: Invalid value: "uuid": must be one of byte,date,date-time,double,float,int32,int64,password',
      'spec.additionalPrinterColumns[0].JSONPath: Invalid value: "spec.size": must be a simple json path starting with .',
      'spec.additionalPrinterColumns[1].type: Required value: must be one of boolean,date,integer,number,string',
      'spec.additionalPrinterColumns[1].JSONPath: Required value',
    ]);
  });

  it('checks the conversion strategy and its webhook', () => {
    expect(validate({ conversion: { strategy: 'Webhook' } })).toEqual([
      'spec.conversion.webhookClientConfig: Required value: required when strategy is set to Webhook',
      'spec.conversion.conversionReviewVersions: Required value',
    ]);
    expect(validate({ conversion: { strategy: 'Webhook', webhook: { clientConfig: { url: 'http://convert.example.com' }, conversionReviewVersions: ['v2', 'v2'] } } })).toEqual([
      'spec.conversion.webhookClientConfig.url: Invalid value: "http": \'https\' is the only allowed URL scheme; desired format: https://host[/path]',
      'spec.conversion.conversionReviewVersions[1]: Invalid value: "v2": duplicate version',
      'spec.conversion.conversionReviewVersions: Invalid value: []string{"v2", "v2"}: must include at least one of v1, v1beta1',
    ]);
    expect(validate({ conversion: { strategy: 'None', webhook: { clientConfig: { url: 'https://x' }, conversionReviewVersions: ['v1'] } } })).toEqual([
      'spec.conversion.webhookClientConfig: Forbidden: should not be set when strategy is not set to Webhook',
      'spec.conversion.conversionReviewVersions: Forbidden: should not be set when strategy is not set to Webhook',
    ]);
    expect(validate({ conversion: { strategy: 'Webhook', webhook: { clientConfig: { service: { namespace: 'hooks', name: 'convert', path: '/convert' } }, conversionReviewVersions: ['v1'] } } })).toEqual([]);
    expect(validate({ conversion: { strategy: 'Webhook', webhook: { clientConfig: { service: { name: 'convert', path: 'convert' }, url: 'https://x' }, conversionReviewVersions: ['v1'] } } })).toEqual([
      'spec.conversion.webhookClientConfig: Required value: exactly one of url or service is required',
    ]);
    expect(validate({ conversion: { strategy: 'Custom' } })).toEqual(['spec.conversion.strategy: Unsupported value: "Custom": supported values: "None", "Webhook"']);
  });

  it('refuses spec.preserveUnknownFields: true', () => {
    expect(validate({ preserveUnknownFields: true })).toEqual([
      'spec.preserveUnknownFields: Invalid value: true: cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead',
    ]);
  });

  it('asks groups under k8s.io for the api-approved annotation', () => {
    const obj = crd({ group: 'widgets.k8s.io' }, 'widgets.widgets.k8s.io');
    expect(texts(validateCustomResourceDefinition(obj))).toEqual([
      'metadata.annotations[api-approved.kubernetes.io]: Required value: protected groups must have approval annotation "api-approved.kubernetes.io", see https://github.com/kubernetes/enhancements/pull/1111',
    ]);
    obj.metadata.annotations = { 'api-approved.kubernetes.io': 'unapproved, experimental' };
    expect(validateCustomResourceDefinition(obj)).toEqual([]);
  });
});

describe('validateCustomResourceDefinition: the schema', () => {
  it('wants a typed object at the root and typed fields', () => {
    expect(withSchema({ properties: { spec: { properties: { size: {} } } } })).toEqual([
      `${S}.properties[spec].properties[size].type: Required value: must not be empty for specified object fields`,
      `${S}.properties[spec].type: Required value: must not be empty for specified object fields`,
      `${S}.type: Required value: must not be empty at the root`,
    ]);
    expect(withSchema({ type: 'array', items: { type: 'string' } })).toEqual([`${S}.type: Invalid value: "array": must be object at the root`]);
    expect(withSchema({ type: 'object', properties: { spec: { type: 'list' } } })).toEqual([
      `${S}.properties[spec].type: Unsupported value: "list": supported values: "array", "boolean", "integer", "number", "object", "string"`,
    ]);
  });

  it('restricts metadata to name and generateName', () => {
    expect(withSchema({ type: 'object', properties: { metadata: { type: 'object', properties: { name: { type: 'string', maxLength: 10 } } } } })).toEqual([]);
    expect(withSchema({ type: 'object', properties: { metadata: { type: 'object', properties: { labels: { type: 'object' } } } } })).toEqual([
      `${S}.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified`,
    ]);
  });

  it('forbids $ref, additionalItems, patternProperties, definitions, dependencies, uniqueItems and items arrays', () => {
    expect(withSchema({ type: 'object', properties: { spec: { type: 'object', properties: { a: { $ref: '#/definitions/a' } } } } })).toEqual([
      `${S}.properties[spec].properties[a].$ref: Forbidden: $ref is not supported`,
    ]);
    expect(withSchema({ type: 'object', properties: { spec: { type: 'object', patternProperties: { '^a': { type: 'string' } }, definitions: { d: { type: 'string' } }, dependencies: { a: ['b'] } } } })).toEqual([
      `${S}.properties[spec].patternProperties: Forbidden: patternProperties is not supported`,
      `${S}.properties[spec].definitions: Forbidden: definitions is not supported`,
      `${S}.properties[spec].dependencies: Forbidden: dependencies is not supported`,
    ]);
    expect(withSchema({ type: 'object', properties: { list: { type: 'array', uniqueItems: true, items: [{ type: 'string' }], additionalItems: false } } })).toEqual([
      `${S}.properties[list].additionalItems: Forbidden: additionalItems is not supported`,
      `${S}.properties[list].items: Forbidden: items must be a schema object and not an array`,
      `${S}.properties[list].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic`,
    ]);
  });

  it('reports what NewStructural cannot convert only when nothing else is wrong', () => {
    expect(withSchema({ type: 'object', $schema: 'http://json-schema.org/draft-04/schema#' })).toEqual([`${S}: Invalid value: "": OpenAPIV3Schema 'schema' is not supported`]);
  });

  it('keeps properties and additionalProperties apart and additionalProperties off the root', () => {
    expect(withSchema({ type: 'object', additionalProperties: { type: 'string' }, properties: { spec: { type: 'object', additionalProperties: { type: 'string' }, properties: { a: { type: 'string' } } } } })).toEqual([
      `${S}.additionalProperties: Forbidden: must not be used at the root`,
      `${S}.additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive`,
      `${S}.properties[spec].additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive`,
    ]);
  });

  it('checks the x-kubernetes extensions', () => {
    expect(withSchema({ type: 'object', properties: {
      a: { type: 'string', 'x-kubernetes-preserve-unknown-fields': false },
      b: { type: 'object', 'x-kubernetes-embedded-resource': true },
      c: { 'x-kubernetes-int-or-string': true, 'x-kubernetes-preserve-unknown-fields': true },
      d: { type: 'string', 'x-kubernetes-map-type': 'granular' },
    } })).toEqual([
      `${S}.properties[a].x-kubernetes-preserve-unknown-fields: Invalid value: false: must be true or undefined`,
      `${S}.properties[d].type: Invalid value: "string": must be object if x-kubernetes-map-type is specified`,
    ]);
    expect(withSchema({ type: 'object', properties: {
      b: { type: 'object', 'x-kubernetes-embedded-resource': true },
      c: { 'x-kubernetes-int-or-string': true, 'x-kubernetes-preserve-unknown-fields': true },
      e: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
      f: { anyOf: [{ type: 'integer' }, { type: 'boolean' }] },
    } })).toEqual([
      `${S}.properties[b].properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields`,
      `${S}.properties[c].x-kubernetes-preserve-unknown-fields: Invalid value: true: must be false if x-kubernetes-int-or-string is true`,
      `${S}.properties[f].anyOf[0].type: Forbidden: must be empty to be structural`,
      `${S}.properties[f].anyOf[1].type: Forbidden: must be empty to be structural`,
      `${S}.properties[f].type: Required value: must not be empty for specified object fields`,
    ]);
  });

  it('checks list types and map keys', () => {
    const ports = (over: Obj) => ({ type: 'object', properties: { ports: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['port'], items: { type: 'object', properties: { port: { type: 'integer' }, name: { type: 'string' } } }, ...over } } });
    expect(withSchema(ports({}))).toEqual([
      `${S}.properties[ports].items.properties[port].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property`,
    ]);
    expect(withSchema(ports({ items: { type: 'object', required: ['port'], properties: { port: { type: 'integer' } } } }))).toEqual([]);
    expect(withSchema(ports({ 'x-kubernetes-list-map-keys': ['nope'] }))).toEqual([`${S}.properties[ports].x-kubernetes-list-map-keys: Invalid value: []string{"nope"}: entries must all be names of item properties`]);
    expect(withSchema(ports({ 'x-kubernetes-list-map-keys': undefined }))).toEqual([`${S}.properties[ports].x-kubernetes-list-map-keys: Required value: must not be empty if x-kubernetes-list-type is map`]);
    expect(withSchema({ type: 'object', properties: { tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'object', properties: { a: { type: 'string' } } } }, kinds: { type: 'array', 'x-kubernetes-list-type': 'bag', items: { type: 'string' } } } })).toEqual([
      `${S}.properties[kinds].x-kubernetes-list-type: Unsupported value: "bag": supported values: "atomic", "set", "map"`,
      `${S}.properties[tags].items.x-kubernetes-map-type: Invalid value: "null": must be atomic as item of a list with x-kubernetes-list-type=set`,
    ]);
  });

  it('checks defaults: where they may be, that they are pruned and that they validate', () => {
    expect(withSchema({ type: 'object', properties: { spec: { type: 'object', default: { size: 'small', colour: 'red' }, properties: { size: { type: 'string' }, replicas: { type: 'integer', minimum: 1, default: 0 }, mode: { type: 'string', enum: ['a', 'b'], default: 'c' } } } } })).toEqual([
      `${S}.properties[spec].default: Invalid value: map[string]interface {}{"colour":"red", "size":"small"}: must not have unknown fields`,
      `${S}.properties[spec].properties[mode].default: Unsupported value: "c": supported values: "a", "b"`,
      `${S}.properties[spec].properties[replicas].default: Invalid value: 0:  in body should be greater than or equal to 1`,
    ]);
    expect(withSchema({ type: 'object', properties: { metadata: { type: 'object', default: { name: 'x' } } } })).toEqual([
      `${S}.properties[metadata].default: Forbidden: must not be set in top-level metadata`,
    ]);
  });

  it('checks the plain parts of x-kubernetes-validations and leaves the rules to CEL', () => {
    expect(withSchema({ type: 'object', 'x-kubernetes-validations': [{ rule: ' ' }, { rule: 'self.a > 0', message: 'a\nb' }] })).toEqual([
      `${S}.x-kubernetes-validations[0].rule: Required value: rule is not specified`,
      `${S}.x-kubernetes-validations[1].message: Invalid value: "a\\nb": message must not contain line breaks`,
    ]);
  });

  it('allows only some root fields with the status subresource', () => {
    expect(withSchema({ type: 'string' }, { subresources: { status: {} } })).toEqual([
      `${S}.type: Invalid value: "string": only "object" is allowed as the type at the root of the schema if the status subresource is enabled`,
      `${S}.type: Invalid value: "string": must be object at the root`,
    ]);
    const [first] = withSchema({ type: 'object', anyOf: [{ required: ['spec'] }], properties: { spec: { type: 'object' } } }, { subresources: { status: {} } });
    expect(first).toMatch(/^spec\.validation\.openAPIV3Schema: Invalid value: apiextensions\.JSONSchemaProps\{ID:"", .*AnyOf:\[\]apiextensions\.JSONSchemaProps\{apiextensions\.JSONSchemaProps\{.*Required:\[\]string\{"spec"\}.*\}: only \[Description Type Format .*\] fields are allowed at the root of the schema if the status subresource is enabled$/);
  });
});

describe('the metadata name of a CRD', () => {
  it('must be <plural>.<group>', () => {
    const obj = crd({}, 'widget.example.com');
    expect(texts(validateObjectMeta(obj.metadata, false, crdNameValidator(obj)))).toEqual([
      'metadata.name: Invalid value: "widget.example.com": must be spec.names.plural+"."+spec.group',
    ]);
    expect(validateObjectMeta(crd().metadata, false, crdNameValidator(crd()))).toEqual([]);
  });
});

describe('validateCustomResourceDefinitionUpdate', () => {
  const established = (obj: Obj): Obj => ({ ...obj, status: { conditions: [{ type: 'Established', status: 'True' }], acceptedNames: { plural: 'widgets', kind: 'Widget' }, storedVersions: ['v1'] } });

  it('keeps group, plural and (once established) scope and kind', () => {
    const old = established(crd());
    const next = crd({ group: 'example.org', scope: 'Cluster', names: { plural: 'gadgets', kind: 'Gadget' } });
    expect(texts(validateCustomResourceDefinitionUpdate(next, old))).toEqual([
      'spec.scope: Invalid value: "Cluster": field is immutable',
      'spec.names.kind: Invalid value: "Gadget": field is immutable',
      'spec.group: Invalid value: "example.org": field is immutable',
      'spec.names.plural: Invalid value: "gadgets": field is immutable',
    ]);
  });

  it('keeps the stored versions in spec.versions', () => {
    const old = established(crd());
    const next = crd({ versions: [version({ name: 'v2' })] });
    expect(texts(validateCustomResourceDefinitionUpdate(next, old))).toEqual(['status.storedVersions[0]: Invalid value: "v1": must appear in spec.versions']);
    const both = crd({ versions: [version({ storage: false }), version({ name: 'v2' })] });
    expect(validateCustomResourceDefinitionUpdate(both, old)).toEqual([]);
  });

  it('does not tighten what the stored CRD already breaks', () => {
    const old = established(crd({ versions: [version({ schema: undefined })] }));
    expect(texts(validateCustomResourceDefinitionUpdate(crd({ versions: [version({ schema: undefined })] }), old))).toEqual([
      'spec.versions[0].schema.openAPIV3Schema: Required value: because otherwise all fields are pruned',
    ]);
    expect(validateCustomResourceDefinitionUpdate(crd({ versions: [version({ schema: undefined, served: false })] }), old)).toEqual([]);
  });
});
