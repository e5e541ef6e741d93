import { fieldErrorText, type FieldError } from './field-errors';
import { validateHorizontalPodAutoscaler, validateHorizontalPodAutoscalerUpdate } from './hpa-validation';

type Obj = Record<string, any>;
const texts = (errs: FieldError[]) => errs.map(fieldErrorText);
const target = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };
const v2 = (spec: Obj): Obj => ({ apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', spec: { scaleTargetRef: target, maxReplicas: 5, ...spec } });
const cpu = (target: Obj) => ({ type: 'Resource', resource: { name: 'cpu', target } });

describe('validateHorizontalPodAutoscaler: spec', () => {
  it('accepts what kubectl autoscale and typical manifests send', () => {
    expect(validateHorizontalPodAutoscaler({ apiVersion: 'autoscaling/v1', spec: { scaleTargetRef: target, minReplicas: 2, maxReplicas: 5, targetCPUUtilizationPercentage: 80 } })).toEqual([]);
    expect(validateHorizontalPodAutoscaler(v2({ minReplicas: 1, metrics: [cpu({ type: 'Utilization', averageUtilization: 70 })] }))).toEqual([]);
    expect(
      validateHorizontalPodAutoscaler(
        v2({
          metrics: [
            { type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '100m' } } },
            { type: 'Object', object: { describedObject: { kind: 'Ingress', name: 'main' }, metric: { name: 'rps' }, target: { type: 'Value', value: '10k' } } },
            { type: 'External', external: { metric: { name: 'queue' }, target: { type: 'AverageValue', averageValue: '30' } } },
          ],
          behavior: { scaleDown: { stabilizationWindowSeconds: 300, policies: [{ type: 'Percent', value: 10, periodSeconds: 60 }] }, scaleUp: { selectPolicy: 'Disabled' } },
        }),
      ),
    ).toEqual([]);
  });

  it('replica bounds: minReplicas defaults to 1; maxReplicas > 0 and >= minReplicas', () => {
    expect(texts(validateHorizontalPodAutoscaler(v2({ minReplicas: 5, maxReplicas: 2 })))).toEqual(['spec.maxReplicas: Invalid value: 2: must be greater than or equal to `minReplicas`']);
    expect(texts(validateHorizontalPodAutoscaler(v2({ maxReplicas: 0 })))).toEqual([
      'spec.maxReplicas: Invalid value: 0: must be greater than 0',
      'spec.maxReplicas: Invalid value: 0: must be greater than or equal to `minReplicas`',
    ]);
    expect(texts(validateHorizontalPodAutoscaler(v2({ minReplicas: 0, metrics: [cpu({ type: 'Utilization', averageUtilization: 50 })] })))).toEqual([
      'spec.minReplicas: Invalid value: 0: must be greater than or equal to 1',
      'spec.metrics: Forbidden: must specify at least one Object or External metric to support scaling to zero replicas',
    ]);
  });

  it('scaleTargetRef kind and name required, path segments', () => {
    expect(texts(validateHorizontalPodAutoscaler(v2({ scaleTargetRef: { name: '..' } })))).toEqual([
      'spec.scaleTargetRef.kind: Required value',
      "spec.scaleTargetRef.name: Invalid value: \"..\": may not be '..'",
    ]);
  });

  it('update: a stored minReplicas 0 keeps 0 allowed', () => {
    const objectMetric = { type: 'Object', object: { describedObject: { kind: 'Service', name: 's' }, metric: { name: 'm' }, target: { type: 'Value', value: '1' } } };
    const old = v2({ minReplicas: 0, metrics: [objectMetric] });
    expect(validateHorizontalPodAutoscalerUpdate(v2({ minReplicas: 0, metrics: [objectMetric] }), old)).toEqual([]);
    expect(texts(validateHorizontalPodAutoscalerUpdate(v2({ minReplicas: 0, metrics: [objectMetric] }), v2({})))).toEqual(['spec.minReplicas: Invalid value: 0: must be greater than or equal to 1']);
  });

  it('v1: targetCPUUtilizationPercentage is checked as the internal Resource metric', () => {
    expect(texts(validateHorizontalPodAutoscaler({ apiVersion: 'autoscaling/v1', spec: { scaleTargetRef: target, maxReplicas: 3, targetCPUUtilizationPercentage: 0 } }))).toEqual([
      'spec.metrics[0].resource.target.averageUtilization: Invalid value: 0: must be greater than 0',
    ]);
  });
});

describe('validateHorizontalPodAutoscaler: metrics', () => {
  const metricTexts = (metrics: Obj[]) => texts(validateHorizontalPodAutoscaler(v2({ metrics })));

  it('type required and supported; the matching source populated, and only it', () => {
    expect(metricTexts([{}])).toEqual([
      'spec.metrics[0].type: Required value: must specify a metric source type',
      'spec.metrics[0].type: Unsupported value: "": supported values: "ContainerResource", "External", "Object", "Pods", "Resource"',
      'spec.metrics[0].type: Unsupported value: "": supported values: "ContainerResource", "External", "Object", "Pods", "Resource"',
    ]);
    expect(metricTexts([{ type: 'Pods', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 5 } } }])).toEqual([
      'spec.metrics[0].pods: Required value: must populate information for the given metric source',
    ]);
    expect(metricTexts([{ ...cpu({ type: 'Utilization', averageUtilization: 5 }), pods: { metric: { name: 'x' }, target: { type: 'AverageValue', averageValue: '1' } } }])).toEqual([
      'spec.metrics[0].pods: Forbidden: must populate the given metric source only',
    ]);
  });

  it('resource targets: a known type, utilization or value but not both, positive values', () => {
    expect(metricTexts([cpu({ type: 'Percent' })])).toEqual([
      'spec.metrics[0].resource.target.type: Invalid value: "Percent": must be either Utilization, Value, or AverageValue',
      'spec.metrics[0].resource.target.averageUtilization: Required value: must set either a target raw value or a target utilization',
    ]);
    expect(metricTexts([cpu({ type: 'AverageValue', averageUtilization: 0, averageValue: '-500m' })])).toEqual([
      'spec.metrics[0].resource.target.averageValue: Invalid value: resource.Quantity{i:resource.int64Amount{value:-500, scale:-3}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"", Format:"DecimalSI"}: must be positive',
      'spec.metrics[0].resource.target.averageUtilization: Invalid value: 0: must be greater than 0',
      'spec.metrics[0].resource.target.averageValue: Forbidden: may not set both a target raw value and a target utilization',
    ]);
  });

  it('pods, object and external sources', () => {
    expect(metricTexts([{ type: 'Pods', pods: { metric: {}, target: { type: 'AverageValue' } } }])).toEqual([
      'spec.metrics[0].pods.metric.name: Required value: must specify a metric name',
      'spec.metrics[0].pods.target.averageValue: Required value: must specify a positive target averageValue',
    ]);
    expect(metricTexts([{ type: 'Object', object: { describedObject: {}, metric: { name: 'm' }, target: { type: 'Value' } } }])).toEqual([
      'spec.metrics[0].object.describedObject.kind: Required value',
      'spec.metrics[0].object.describedObject.name: Required value',
      'spec.metrics[0].object.target.averageValue: Required value: must set either a target value or averageValue',
    ]);
    expect(metricTexts([{ type: 'External', external: { metric: { name: 'q' }, target: { type: 'Value', value: '1', averageValue: '1' } } }])).toEqual([
      'spec.metrics[0].external.target.value: Forbidden: may not set both a target value for metric and a per-pod target',
    ]);
  });

  it('ContainerResource: dropped while the HPAContainerMetrics gate is off', () => {
    expect(metricTexts([{ type: 'ContainerResource', containerResource: { name: 'cpu', container: 'app', target: { type: 'Utilization', averageUtilization: 60 } } }])).toEqual([
      'spec.metrics[0].containerResource: Required value: must populate information for the given metric source (only allowed when HPAContainerMetrics feature is enabled)',
    ]);
  });
});

describe('validateHorizontalPodAutoscaler: behavior', () => {
  it('stabilization window, select policy, policies (an empty list is an error, an unset one takes the defaults)', () => {
    const behavior = {
      scaleUp: { stabilizationWindowSeconds: 4000, selectPolicy: 'Any', policies: [] },
      scaleDown: { stabilizationWindowSeconds: -1, policies: [{ type: 'Replicas', value: 0, periodSeconds: 1801 }] },
    };
    expect(texts(validateHorizontalPodAutoscaler(v2({ behavior })))).toEqual([
      'spec.behavior.scaleUp.stabilizationWindowSeconds: Invalid value: 4000: must be less than or equal to 3600',
      'spec.behavior.scaleUp.selectPolicy: Unsupported value: "Any": supported values: "Disabled", "Max", "Min"',
      'spec.behavior.scaleUp.policies: Required value: must specify at least one Policy',
      'spec.behavior.scaleDown.stabilizationWindowSeconds: Invalid value: -1: must be greater than or equal to zero',
      'spec.behavior.scaleDown.policies[0].type: Unsupported value: "Replicas": supported values: "Percent", "Pods"',
      'spec.behavior.scaleDown.policies[0].value: Invalid value: 0: must be greater than zero',
      'spec.behavior.scaleDown.policies[0].periodSeconds: Invalid value: 1801: must be less than or equal to 1800',
    ]);
    expect(validateHorizontalPodAutoscaler(v2({ behavior: { scaleUp: { stabilizationWindowSeconds: 0 } } }))).toEqual([]);
  });
});
