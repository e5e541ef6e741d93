import { fieldErrorText, type FieldError } from './field-errors';
import { parseCidr, validateIpBlock } from './ip-block-validation';
import { validateNetworkPolicy, validateNetworkPolicyUpdate } from './network-policy-validation';

type Obj = Record<string, any>;

const np = (spec: Obj): Obj => ({ apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { name: 'n', namespace: 'default' }, spec });
const texts = (errs: FieldError[]) => errs.map(fieldErrorText);

describe('validateNetworkPolicy (ValidateNetworkPolicySpec)', () => {
  it('accepts deny-all, selector peers, an ipBlock with excepts, port ranges and named ports', () => {
    expect(validateNetworkPolicy(np({ podSelector: {} }))).toEqual([]);
    expect(
      validateNetworkPolicy(
        np({
          podSelector: { matchLabels: { app: 'db' } },
          policyTypes: ['Ingress', 'Egress'],
          ingress: [{ from: [{ podSelector: { matchLabels: { app: 'web' } }, namespaceSelector: {} }, { ipBlock: { cidr: '10.0.0.0/8', except: ['10.1.0.0/16'] } }], ports: [{ protocol: 'TCP', port: 5432 }] }],
          egress: [{ to: [{ ipBlock: { cidr: 'fd00::/64', except: ['fd00::1/128'] } }], ports: [{ port: 32000, endPort: 32768, protocol: 'UDP' }, { port: 'dns', protocol: 'SCTP' }] }],
        }),
      ),
    ).toEqual([]);
  });

  it('the pod selector is checked as a label selector', () => {
    expect(texts(validateNetworkPolicy(np({ podSelector: { matchExpressions: [{ key: 'app', operator: 'In' }] } })))).toEqual([
      "spec.podSelector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
    ]);
  });

  it('a peer needs one of its fields, and an ipBlock stands alone', () => {
    expect(validateNetworkPolicy(np({ podSelector: {}, ingress: [{ from: [{}] }] }))).toEqual([{ type: 'Required', field: 'spec.ingress[0].from[0]', detail: 'must specify a peer' }]);
    expect(texts(validateNetworkPolicy(np({ podSelector: {}, egress: [{ to: [{ podSelector: {}, ipBlock: { cidr: '10.0.0.0/8' } }] }] })))).toEqual([
      'spec.egress[0].to[0]: Forbidden: may not specify both ipBlock and another peer',
    ]);
  });

  it('ipBlock: a required, valid cidr, and excepts strictly inside it', () => {
    expect(texts(validateNetworkPolicy(np({ podSelector: {}, ingress: [{ from: [{ ipBlock: { cidr: '' } }, { ipBlock: { cidr: '10.0.0.0/33' } }, { ipBlock: { cidr: '10.0.0.0' } }] }] })))).toEqual([
      'spec.ingress[0].from[0].ipBlock.cidr: Required value',
      'spec.ingress[0].from[1].ipBlock.cidr: Invalid value: "10.0.0.0/33": not a valid CIDR',
      'spec.ingress[0].from[2].ipBlock.cidr: Invalid value: "10.0.0.0": not a valid CIDR',
    ]);
    const block = { cidr: '10.0.0.0/16', except: ['10.0.0.0/16', '10.1.0.0/24', '10.0.5.0/24', 'fd00::/64', 'nonsense', '10.0.0.0/8'] };
    expect(texts(validateIpBlock(block, 'b'))).toEqual([
      'b.except[0]: Invalid value: "10.0.0.0/16": must be a strict subset of `cidr`',
      'b.except[1]: Invalid value: "10.1.0.0/24": must be a strict subset of `cidr`',
      'b.except[3]: Invalid value: "fd00::/64": must be a strict subset of `cidr`',
      // The first except that is not a CIDR ends the checks.
      'b.except[4]: Invalid value: "nonsense": not a valid CIDR',
    ]);
  });

  it('parses CIDRs as ParseCIDRSloppy does: host bits allowed, leading zeros in octets, prefix within the family', () => {
    expect(parseCidr('10.0.0.7/8')).toEqual({ network: Uint8Array.from([10, 0, 0, 0]), prefix: 8 });
    expect(parseCidr('010.001.0.0/016')).toEqual({ network: Uint8Array.from([10, 1, 0, 0]), prefix: 16 });
    expect(parseCidr('::1/128')?.prefix).toBe(128);
    expect(parseCidr('::/129')).toBeUndefined();
    expect(parseCidr('1.2.3.4/-1')).toBeUndefined();
    expect(parseCidr('1.2.3.4/')).toBeUndefined();
    // An IPv4-mapped IPv6 except is compared as IPv4, as Go's IPNet.Contains does.
    expect(validateIpBlock({ cidr: '10.0.0.0/16', except: ['::ffff:10.0.1.0/120', '::ffff:10.9.0.0/120'] }, 'b')).toEqual([
      { type: 'Invalid', field: 'b.except[1]', value: '::ffff:10.9.0.0/120', detail: 'must be a strict subset of `cidr`' },
    ]);
  });

  it('ports: protocol, port number or name, endPort only after a numeric port and not below it', () => {
    const ports = [
      { protocol: 'ICMP' },
      { port: 0 },
      { port: 'HTTP' },
      { port: 8080, endPort: 80 },
      { port: 80, endPort: 70000 },
      { port: 'http', endPort: 90 },
      { endPort: 90 },
    ];
    expect(texts(validateNetworkPolicy(np({ podSelector: {}, ingress: [{ ports }] })))).toEqual([
      'spec.ingress[0].ports[0].protocol: Unsupported value: "ICMP": supported values: "TCP", "UDP", "SCTP"',
      'spec.ingress[0].ports[1].port: Invalid value: 0: must be between 1 and 65535, inclusive',
      'spec.ingress[0].ports[2].port: Invalid value: "HTTP": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
      'spec.ingress[0].ports[2].port: Invalid value: "HTTP": must contain at least one letter (a-z)',
      // Go shows the port, not the endPort, as this error's value.
      'spec.ingress[0].ports[3].endPort: Invalid value: 8080: must be greater than or equal to `port`',
      'spec.ingress[0].ports[4].endPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
      'spec.ingress[0].ports[5].endPort: Invalid value: 90: may not be specified when `port` is non-numeric',
      'spec.ingress[0].ports[6].endPort: Invalid value: 90: may not be specified when `port` is not specified',
    ]);
  });

  it('policyTypes: Ingress or Egress, at most two (then nothing else is checked)', () => {
    expect(validateNetworkPolicy(np({ podSelector: {}, policyTypes: ['Ingress', 'Outgoing'] }))).toEqual([
      { type: 'NotSupported', field: 'spec.policyTypes[1]', value: 'Outgoing', detail: 'supported values: "Ingress", "Egress"' },
    ]);
    expect(texts(validateNetworkPolicy(np({ podSelector: {}, policyTypes: ['Ingress', 'Egress', 'Bogus'] })))).toEqual([
      'spec.policyTypes: Invalid value: []networking.PolicyType{"Ingress", "Egress", "Bogus"}: may not specify more than two policyTypes',
    ]);
  });
});

describe('validateNetworkPolicyUpdate (ValidateNetworkPolicyUpdate)', () => {
  const badValue = { matchExpressions: [{ key: 'app', operator: 'In', values: ['bad value'] }] };
  it('checks the new spec; label values in match expressions stay allowed when the stored pod selector already breaks the rules', () => {
    const next = np({ podSelector: badValue, ingress: [{ from: [{ podSelector: badValue }] }], policyTypes: ['Sideways'] });
    expect(texts(validateNetworkPolicyUpdate(next, np({ podSelector: {} })))).toEqual([
      expect.stringMatching(/^spec\.podSelector\.matchExpressions\[0\]\.values\[0\]: Invalid value: "bad value": /),
      expect.stringMatching(/^spec\.ingress\[0\]\.from\[0\]\.podSelector\.matchExpressions\[0\]\.values\[0\]: Invalid value: "bad value": /),
      'spec.policyTypes[0]: Unsupported value: "Sideways": supported values: "Ingress", "Egress"',
    ]);
    expect(texts(validateNetworkPolicyUpdate(next, np({ podSelector: badValue })))).toEqual(['spec.policyTypes[0]: Unsupported value: "Sideways": supported values: "Ingress", "Egress"']);
  });
});
