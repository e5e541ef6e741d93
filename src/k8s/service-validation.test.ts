import { fieldErrorText, type FieldError } from './field-errors';
import { applyDefaults } from './object-defaults';
import { validateService, validateServiceUpdate } from './service-validation';

type Obj = Record<string, any>;

/** A Service as validation sees it on create: the request's object after defaulting. */
function svc(spec: Obj, annotations?: Obj): Obj {
  const obj: Obj = { apiVersion: 'v1', kind: 'Service', metadata: { name: 's', namespace: 'default', ...(annotations ? { annotations } : {}) }, spec };
  applyDefaults('Service', obj);
  return obj;
}

/** A stored Service: defaulted and allocated. */
function stored(spec: Obj): Obj {
  const obj = svc(spec);
  if (obj.spec.type !== 'ExternalName') {
    obj.spec.clusterIP ??= '10.0.0.7';
    obj.spec.clusterIPs ??= [obj.spec.clusterIP];
    obj.spec.ipFamilies ??= ['IPv4'];
    obj.spec.ipFamilyPolicy ??= 'SingleStack';
  }
  return obj;
}

/** The update's object: `old` as read back, changed by `change`, defaulted against `old`. */
function updated(old: Obj, change: (o: Obj) => void): Obj {
  const next = structuredClone(old);
  change(next);
  applyDefaults('Service', next, old);
  return next;
}

const texts = (errs: FieldError[]) => errs.map(fieldErrorText);
const port = (p: Obj = {}) => ({ port: 80, ...p });

describe('validateService (ValidateServiceCreate)', () => {
  it('accepts a plain ClusterIP Service, a headless one without ports and an ExternalName one', () => {
    expect(validateService(svc({ selector: { app: 'a' }, ports: [port()] }))).toEqual([]);
    expect(validateService(svc({ clusterIP: 'None', selector: { app: 'a' } }))).toEqual([]);
    expect(validateService(svc({ type: 'ExternalName', externalName: 'db.example.com.' }))).toEqual([]);
    expect(validateService(svc({ type: 'NodePort', ports: [port({ nodePort: 30080 })] }))).toEqual([]);
    expect(validateService(svc({ type: 'LoadBalancer', ports: [port()], loadBalancerSourceRanges: ['10.0.0.0/8'] }))).toEqual([]);
  });

  it('requires ports unless headless or ExternalName', () => {
    const errs = validateService(svc({ selector: { app: 'a' } }));
    expect(errs).toEqual([{ type: 'Required', field: 'spec.ports', detail: '' }]);
    expect(texts(errs)).toEqual(['spec.ports: Required value']);
  });

  it('names ports when there are several: required, DNS-1123 labels, unique', () => {
    const errs = validateService(svc({ ports: [port({ name: 'web' }), port({ port: 81 }), port({ name: 'web', port: 82 }), port({ name: 'Web_1', port: 83 })] }));
    expect(texts(errs)).toEqual([
      'spec.ports[1].name: Required value',
      'spec.ports[2].name: Duplicate value: "web"',
      `spec.ports[3].name: Invalid value: "Web_1": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
    ]);
    expect(errs[1]!.type).toBe('Duplicate');
  });

  it('checks port numbers, protocols and target ports', () => {
    const errs = validateService(svc({ ports: [{ name: 'a', port: 0, targetPort: 8080 }, { name: 'b', port: 70000, protocol: 'HTTP', targetPort: 'http--x' }, { name: 'c', port: 90, targetPort: '8080' }] }));
    expect(texts(errs)).toEqual([
      'spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive',
      'spec.ports[1].port: Invalid value: 70000: must be between 1 and 65535, inclusive',
      'spec.ports[1].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"',
      'spec.ports[1].targetPort: Invalid value: "http--x": must not contain consecutive hyphens',
      'spec.ports[2].targetPort: Invalid value: "8080": must contain at least one letter (a-z)',
    ]);
  });

  it('forbids nodePort on a ClusterIP Service and duplicate node ports and ports', () => {
    expect(texts(validateService(svc({ ports: [port({ nodePort: 30001 })] })))).toEqual([
      "spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'",
    ]);
    const errs = validateService(svc({ type: 'NodePort', ports: [port({ name: 'a', nodePort: 30001 }), port({ name: 'b', nodePort: 30001 })] }));
    expect(texts(errs)).toEqual([
      'spec.ports[1].nodePort: Duplicate value: 30001',
      'spec.ports[1]: Duplicate value: core.ServicePort{Name:"", Protocol:"TCP", AppProtocol:(*string)(nil), Port:80, TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, NodePort:0}',
    ]);
  });

  it('checks type, session affinity and its config', () => {
    expect(texts(validateService(svc({ type: 'Internal', ports: [port()] })))).toEqual([
      'spec.type: Unsupported value: "Internal": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"',
    ]);
    expect(texts(validateService(svc({ ports: [port()], sessionAffinity: 'Cookie' })))).toEqual([
      'spec.sessionAffinity: Unsupported value: "Cookie": supported values: "ClientIP", "None"',
    ]);
    expect(texts(validateService(svc({ ports: [port()], sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: { timeoutSeconds: 0 } } })))).toEqual([
      'spec.sessionAffinityConfig.clientIP.timeoutSeconds: Invalid value: 0: must be greater than 0 and less than 86400',
    ]);
    expect(texts(validateService(svc({ ports: [port()], sessionAffinityConfig: { clientIP: { timeoutSeconds: 10 } } })))).toEqual([
      'spec.sessionAffinityConfig: Forbidden: must not be set when session affinity is None',
    ]);
  });

  it('validates the selector as labels', () => {
    expect(texts(validateService(svc({ ports: [port()], selector: { app: 'a b' } })))).toEqual([
      `spec.selector: Invalid value: "a b": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
    ]);
  });

  it('ExternalName: externalName required and a DNS subdomain, no cluster IPs', () => {
    expect(texts(validateService(svc({ type: 'ExternalName' })))).toEqual(['spec.externalName: Required value']);
    expect(texts(validateService(svc({ type: 'ExternalName', externalName: 'Not_A_Host', clusterIP: '10.0.0.9' })))).toEqual([
      'spec.clusterIPs: Forbidden: may not be set for ExternalName services',
      `spec.externalName: Invalid value: "Not_A_Host": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
    ]);
  });

  it('headless is not allowed for NodePort and LoadBalancer; the kubelet port is not exposed', () => {
    expect(texts(validateService(svc({ type: 'NodePort', clusterIP: 'None', ports: [port()] })))).toEqual([
      `spec.clusterIPs[0]: Invalid value: "None": may not be set to 'None' for NodePort services`,
    ]);
    expect(texts(validateService(svc({ type: 'LoadBalancer', ports: [port({ port: 10250 })] })))).toEqual([
      'spec.ports[0]: Invalid value: 10250: may not expose port 10250 externally since it is used by kubelet',
    ]);
  });

  it('traffic policies: supported values, externalTrafficPolicy only for NodePort and LoadBalancer', () => {
    expect(texts(validateService(svc({ ports: [port()], externalTrafficPolicy: 'Cluster' })))).toEqual([
      `spec.externalTrafficPolicy: Invalid value: "Cluster": may only be set when \`type\` is 'NodePort' or 'LoadBalancer'`,
    ]);
    expect(texts(validateService(svc({ type: 'NodePort', ports: [port()], externalTrafficPolicy: 'Nearest', internalTrafficPolicy: 'Near' })))).toEqual([
      'spec.externalTrafficPolicy: Unsupported value: "Nearest": supported values: "Cluster", "Local"',
      'spec.internalTrafficPolicy: Unsupported value: "Near": supported values: "Cluster", "Local"',
    ]);
  });

  it('clusterIPs and ipFamilies basics', () => {
    expect(texts(validateService(svc({ ports: [port()], clusterIP: '10.0.0.300' })))).toEqual([
      'spec.clusterIPs[0]: Invalid value: "10.0.0.300": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
    ]);
    expect(texts(validateService(svc({ ports: [port()], ipFamilies: ['IPv4', 'IPv5', 'IPv4'], ipFamilyPolicy: 'Dual' })))).toEqual([
      'spec.ipFamilies[1]: Unsupported value: "IPv5": supported values: "IPv4", "IPv6"',
      'spec.ipFamilies[2]: Duplicate value: "IPv4"',
      'spec.ipFamilyPolicy: Unsupported value: "Dual": supported values: "PreferDualStack", "RequireDualStack", "SingleStack"',
    ]);
    expect(texts(validateService(svc({ ports: [port()], clusterIP: '10.0.0.5', clusterIPs: ['10.0.0.6'] })))).toEqual([
      'spec.clusterIPs: Invalid value: []string{"10.0.0.6"}: first value must match `clusterIP`',
    ]);
  });

  it('loadBalancerSourceRanges: CIDRs, and only on LoadBalancer Services', () => {
    expect(texts(validateService(svc({ type: 'LoadBalancer', ports: [port()], loadBalancerSourceRanges: ['10.0.0.0/33', '1.2.3.4/8'] })))).toEqual([
      'spec.LoadBalancerSourceRanges: Invalid value: "[10.0.0.0/33 1.2.3.4/8]": must be a list of IP ranges. For example, 10.240.0.0/24,10.250.0.0/24 ',
    ]);
    expect(texts(validateService(svc({ ports: [port()], loadBalancerSourceRanges: ['10.0.0.0/8'] })))).toEqual([
      "spec.LoadBalancerSourceRanges: Forbidden: may only be used when `type` is 'LoadBalancer'",
    ]);
    expect(texts(validateService(svc({ type: 'LoadBalancer', ports: [port()] }, { 'service.beta.kubernetes.io/load-balancer-source-ranges': 'nope' })))).toEqual([
      'metadata.annotations[service.beta.kubernetes.io/load-balancer-source-ranges]: Invalid value: "nope": must be a list of IP ranges. For example, 10.240.0.0/24,10.250.0.0/24 ',
    ]);
  });

  it('externalIPs: valid and not special', () => {
    expect(texts(validateService(svc({ ports: [port()], externalIPs: ['1.2.3', '127.0.0.1', '192.168.1.10'] })))).toEqual([
      'spec.externalIPs[0]: Invalid value: "1.2.3": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
      'spec.externalIPs[1]: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
    ]);
  });

  it('appends errors in the order ValidateService does', () => {
    const errs = validateService(svc({ type: 'Bogus', sessionAffinity: 'X', ports: [port({ name: 'a' }), port({ name: 'a' })] }));
    expect(errs.map((e) => e.field)).toEqual(['spec.ports[1].name', 'spec.sessionAffinity', 'spec.type', 'spec.ports[1]']);
  });
});

describe('validateServiceUpdate (ValidateServiceUpdate)', () => {
  const base = stored({ selector: { app: 'a' }, ports: [port()] });

  it('accepts a resubmitted object without its allocated clusterIP', () => {
    const next = updated(base, (o) => {
      delete o.spec.clusterIP;
      delete o.spec.clusterIPs;
    });
    expect(validateServiceUpdate(next, base)).toEqual([]);
  });

  it('a clusterIP may not change once set', () => {
    const next = updated(base, (o) => {
      o.spec.clusterIP = '10.0.0.99';
    });
    const errs = validateServiceUpdate(next, base);
    expect(errs).toEqual([{ type: 'Invalid', field: 'spec.clusterIPs[0]', value: { goSyntax: '[]string{"10.0.0.99"}' }, detail: 'may not change once set' }]);
    expect(texts(errs)).toEqual(['spec.clusterIPs[0]: Invalid value: []string{"10.0.0.99"}: may not change once set']);
  });

  it('then runs the create rules on the new object', () => {
    const next = updated(base, (o) => {
      o.spec.ports = [];
    });
    expect(texts(validateServiceUpdate(next, base))).toEqual(['spec.ports: Required value']);
  });

  it('type NodePort → ClusterIP drops the node ports and policy read back from the server', () => {
    const nodePort = stored({ type: 'NodePort', ports: [port({ nodePort: 30080 })] });
    const next = updated(nodePort, (o) => {
      o.spec.type = 'ClusterIP';
    });
    expect(validateServiceUpdate(next, nodePort)).toEqual([]);
    expect(next.spec.ports[0].nodePort).toBeUndefined();
    expect(next.spec.externalTrafficPolicy).toBeUndefined();
  });

  it('type ClusterIP → ExternalName drops the allocated addresses; → ClusterIP again needs no clusterIP', () => {
    const next = updated(base, (o) => {
      o.spec.type = 'ExternalName';
      o.spec.externalName = 'db.example.com';
    });
    expect(validateServiceUpdate(next, base)).toEqual([]);
    expect(next.spec.clusterIP).toBeUndefined();
    const external = stored({ type: 'ExternalName', externalName: 'db.example.com' });
    const back = updated(external, (o) => {
      o.spec.type = 'ClusterIP';
      o.spec.ports = [port()];
    });
    expect(validateServiceUpdate(back, external)).toEqual([]);
  });

  it('a nodePort the client changes on the way to ClusterIP is judged, not dropped', () => {
    const nodePort = stored({ type: 'NodePort', ports: [port({ nodePort: 30080 })] });
    const next = updated(nodePort, (o) => {
      o.spec.type = 'ClusterIP';
      o.spec.ports[0].nodePort = 30081;
    });
    expect(texts(validateServiceUpdate(next, nodePort))).toEqual(["spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'"]);
  });

  it('loadBalancerClass may not change once set', () => {
    const lb = stored({ type: 'LoadBalancer', ports: [port()], loadBalancerClass: 'example.com/a' });
    const next = updated(lb, (o) => {
      o.spec.loadBalancerClass = 'example.com/b';
    });
    expect(texts(validateServiceUpdate(next, lb))).toEqual(['spec.loadBalancerClass: Invalid value: "example.com/b": may not change once set']);
    const cleared = updated(lb, (o) => {
      delete o.spec.loadBalancerClass;
    });
    // A nil *string is the quoted string "null" in v1.26's field.Error.
    expect(texts(validateServiceUpdate(cleared, lb))).toEqual(['spec.loadBalancerClass: Invalid value: "null": may not change once set']);
  });
});
