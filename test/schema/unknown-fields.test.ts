import { pruneUnknownFields } from '../../src/schema';
import { builtinSchema } from '../../src/serve/builtin-schema';

describe('pruneUnknownFields over the built-in schema', () => {
  it('finds and removes undeclared fields at every depth, in body order, and keeps map entries', () => {
    const pod: Record<string, any> = {
      apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', bogus: 1, labels: { any: 'x' } }, extraTop: 'x',
      spec: { containers: [{ name: 'c', image: 'i', imagee: 'typo', resources: { limits: { cpu: '1' } } }], nodeSelector: { k: 'v' } },
    };
    expect(pruneUnknownFields(pod, builtinSchema().typeOf('v1', 'Pod')!)).toEqual(['metadata.bogus', 'extraTop', 'spec.containers[0].imagee']);
    expect(pod).toEqual({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', labels: { any: 'x' } }, spec: { containers: [{ name: 'c', image: 'i', resources: { limits: { cpu: '1' } } }], nodeSelector: { k: 'v' } } });
  });

  it('keeps what untyped fields hold (a ControllerRevision’s data)', () => {
    const rev = { apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name: 'r' }, revision: 1, data: { anything: { goes: true } } };
    expect(pruneUnknownFields(rev, builtinSchema().typeOf('apps/v1', 'ControllerRevision')!)).toEqual([]);
    expect(rev.data).toEqual({ anything: { goes: true } });
  });

  it('with goNulls, gives every null what the Go round trip leaves: no field, a zero struct, a zero scalar, null', () => {
    const deployment: Record<string, any> = {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' },
      spec: { replicas: null, selector: null, template: null, strategy: { type: null, rollingUpdate: { maxSurge: null } } },
      status: { conditions: [null], replicas: null },
    };
    expect(pruneUnknownFields(deployment, builtinSchema().typeOf('apps/v1', 'Deployment')!, true)).toEqual([]);
    expect(deployment.spec).toEqual({ selector: null, template: { metadata: { creationTimestamp: null }, spec: { containers: null } }, strategy: { rollingUpdate: {} } });
    expect(deployment.status.conditions).toEqual([{ type: '', status: '', lastUpdateTime: null, lastTransitionTime: null }]);
    expect(deployment.status).not.toHaveProperty('replicas');
  });

  it('with goNulls, a null to change inside a frozen subtree is a frozen write (TypeError); without it the subtree is left alone', () => {
    const spec = Object.freeze({ containers: Object.freeze([Object.freeze({ name: 'c', args: null })]) });
    const root = builtinSchema().typeOf('v1', 'Pod')!;
    expect(pruneUnknownFields({ spec }, root)).toEqual([]);
    expect(() => pruneUnknownFields({ spec }, root, true)).toThrow(TypeError);
  });
});
