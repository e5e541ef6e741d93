import { elementType, fieldType, keepsUnknownFields, listMapKeys, listType, mapType, patchMergeKey, patchStrategy } from '../../src/schema';
import { builtinSchema } from '../../src/serve/builtin-schema';

describe('the shipped built-in schema', () => {
  const schema = builtinSchema();

  it('has the root types of built-in kinds', () => {
    expect(schema.typeOf('apps/v1', 'Deployment')!.definition).toBe('io.k8s.api.apps.v1.Deployment');
    expect(schema.typeOf('v1', 'Pod')!.definition).toBe('io.k8s.api.core.v1.Pod');
    expect(schema.typeOf('apiregistration.k8s.io/v1', 'APIService')!.definition).toBe('io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIService');
    expect(schema.typeOf('example.com/v1', 'Widget')).toBeUndefined();
  });

  it('carries the patch markers of a Deployment’s pod template', () => {
    const deploymentSpec = fieldType(schema.typeOf('apps/v1', 'Deployment'), 'spec');
    expect(patchStrategy(fieldType(deploymentSpec, 'strategy'))).toBe('retainKeys');
    const podSpec = fieldType(fieldType(deploymentSpec, 'template'), 'spec');
    const containers = fieldType(podSpec, 'containers');
    expect([patchStrategy(containers), patchMergeKey(containers), listType(containers)]).toEqual(['merge', 'name', 'map']);
    const ports = fieldType(elementType(containers), 'ports');
    expect(patchMergeKey(ports)).toBe('containerPort');
    expect(listMapKeys(ports)).toEqual(['containerPort', 'protocol']);
    expect(fieldType(elementType(ports), 'protocol')!.default).toBe('TCP');
    expect(patchStrategy(fieldType(podSpec, 'volumes'))).toBe('merge,retainKeys');
    expect(listType(fieldType(elementType(containers), 'args'))).toBe('atomic');
  });

  it('knows scalar, int-or-string, quantity and map types', () => {
    const container = schema.definition('io.k8s.api.core.v1.Container');
    expect(fieldType(container, 'image')!.type).toBe('string');
    expect(fieldType(container, 'stdin')!.type).toBe('boolean');
    const limits = fieldType(fieldType(container, 'resources'), 'limits')!;
    expect(limits.type).toBe('map');
    expect(elementType(limits)!.type).toBe('quantity');
    const port = fieldType(schema.definition('io.k8s.api.core.v1.ServicePort'), 'targetPort')!;
    expect(port.type).toBe('int-or-string');
    expect(fieldType(schema.definition('io.k8s.api.core.v1.ServicePort'), 'port')!.format).toBe('int32');
    expect(mapType(schema.definition('io.k8s.api.core.v1.LocalObjectReference'))).toBe('atomic');
    expect(mapType(fieldType(schema.typeOf('v1', 'ConfigMap'), 'data'))).toBe('granular');
    expect(listType(fieldType(fieldType(schema.typeOf('v1', 'Pod'), 'metadata'), 'finalizers'))).toBe('set');
    expect(keepsUnknownFields(fieldType(schema.typeOf('apps/v1', 'ControllerRevision'), 'data'))).toBe(true);
  });
});
