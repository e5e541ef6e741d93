import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseWorkload, WorkloadError } from '../../src/explore/workload';
import { UsageError } from '../../src/errors/usage-error';

const parse = (yaml: string, path = '/w/steps.yaml') => parseWorkload(yaml, path);
const error = (yaml: string): string => {
  try {
    parse(yaml);
  } catch (err) {
    expect(err).toBeInstanceOf(WorkloadError);
    expect(err).toBeInstanceOf(UsageError);
    return (err as Error).message;
  }
  throw new Error('parsed');
};

describe('workload file', () => {
  it('parses every step kind of the issue, durations and file paths relative to the workload', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kubetape-workload-'));
    writeFileSync(join(dir, 'parent.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: a, namespace: demo }\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: { name: b, namespace: demo }\n');
    const w = parse(
      `steps:
  - apply: { file: parent.yaml }
  - apply: { object: { apiVersion: v1, kind: ConfigMap, metadata: { name: c, namespace: demo } } }
  - wait: { resource: configmaps, namespace: demo, name: child-a, jsonpath: '{.data.ready}', equals: "yes", timeout: 30s }
  - wait: { resource: deployments.apps, namespace: demo, name: parent-a, gone: true, timeout: 2m }
  - patch: { resource: configmaps, namespace: demo, name: parent-a, type: merge, patch: { data: { size: "3" } } }
  - patch: { resource: configmaps, namespace: demo, name: parent-a, type: json, patch: [{ op: add, path: /data/x, value: "1" }] }
  - delete: { resource: configmaps, namespace: demo, name: parent-a }
  - quiesce: { seconds: 2 }
  - sleep: 500ms
`,
      join(dir, 'steps.yaml'),
    );
    expect(w.steps).toHaveLength(9);
    expect(w.steps[0]).toEqual({ apply: { objects: [expect.objectContaining({ metadata: { name: 'a', namespace: 'demo' } }), expect.objectContaining({ metadata: { name: 'b', namespace: 'demo' } })], source: join(dir, 'parent.yaml') } });
    expect(w.steps[2]).toEqual({ wait: { resource: 'configmaps', namespace: 'demo', name: 'child-a', jsonpath: '{.data.ready}', equals: 'yes', gone: undefined, timeoutMs: 30_000 } });
    expect(w.steps[3]).toMatchObject({ wait: { resource: 'deployments.apps', gone: true, timeoutMs: 120_000 } });
    expect(w.steps[7]).toEqual({ quiesce: { ms: 2000 } });
    expect(w.steps[8]).toEqual({ sleep: { ms: 500 } });
  });

  it('names the step and the field of a mistake', () => {
    expect(error('steps:\n  - sleep: 1s\n  - wait: { resource: configmaps, name: a, timeout: soon }\n')).toMatch(/step 2 \(wait\): field "wait.timeout" invalid duration "soon"/);
    expect(error('steps:\n  - patch: { resource: configmaps, name: a, type: xml, patch: {} }\n')).toMatch(/step 1 \(patch\): field "patch.type" must be one of merge, json, strategic/);
    expect(error('steps:\n  - delete: { resource: ConfigMaps!, name: a }\n')).toMatch(/step 1 \(delete\): field "delete.resource"/);
    expect(error('steps:\n  - delete: { resource: configmaps }\n')).toMatch(/step 1 \(delete\): field "delete.name" is required/);
    expect(error('steps:\n  - apply: { object: { kind: ConfigMap, metadata: { name: a } } }\n')).toMatch(/step 1 \(apply\): field "apply.object.apiVersion" is required/);
    expect(error('steps:\n  - apply: { file: missing.yaml }\n')).toMatch(/step 1 \(apply\): field "apply.file" cannot be read/);
    expect(error('steps:\n  - wait: { resource: configmaps, name: a, jsonpath: "{.items[0]}" }\n')).toMatch(/field "wait.jsonpath" must be a path/);
    expect(error('steps:\n  - quiesce: { seconds: -1 }\n')).toMatch(/step 1 \(quiesce\): field "quiesce.seconds"/);
    expect(error('steps:\n  - remove: { resource: configmaps, name: a }\n')).toMatch(/step 1: field "remove" is not a step/);
    expect(error('nothing: here\n')).toMatch(/field "steps" must be a list/);
  });
});
