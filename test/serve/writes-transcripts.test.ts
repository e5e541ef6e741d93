/**
 * serve's answers to the real apiserver's write exchanges (w1–w5), replayed in their recorded
 * order: status and body byte for byte, with uids, timestamps and resourceVersions masked.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { replayExchanges, send, writeExchange } from './write-transcripts';
import { writeCluster, type WriteCluster } from './write-cluster';

const ALL = readdirSync(join(__dirname, '..', 'fixtures', 'transcripts')).filter((f) => /^w\d/.test(f) && f.endsWith('.txt')).map((f) => f.slice(0, -4));
const pick = (re: RegExp, except: RegExp[] = []) => ALL.filter((n) => re.test(n) && !except.some((e) => e.test(n)));

function bigConfigMap(name: string, total: number): Buffer {
  const head = `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"${name}"},"data":{"k":"`;
  const tail = '"}}';
  return Buffer.from(head + 'x'.repeat(total - head.length - tail.length) + tail);
}

describe('serve writes: the real apiserver\'s exchanges', () => {
  let c: WriteCluster;
  beforeEach(async () => {
    c = await writeCluster();
  });
  afterEach(() => c.close());

  async function check(names: string[], bodies: Record<string, Buffer> = {}) {
    const results = await replayExchanges(c.api.url, names, bodies);
    expect(results.filter((r) => r.actual !== r.expected)).toEqual([]);
    return results;
  }

  it('w1: creates and their errors', async () => {
    const names = pick(/^w1-create-/, [/protobuf/, /serviceaccount/, /pod-without/, /just-under/, /create-namespace$/]);
    const results = await check(names, {
      'w1-create-body-over-3mib': bigConfigMap('cm-huge', 3145912),
      'w1-create-data-over-1mib': bigConfigMap('cm-1m', 1048576 + 200),
    });
    expect(results.length).toBeGreaterThan(30);
  });
});

describe('serve writes: updates, patches, deletes, dry run', () => {
  let c: WriteCluster;
  beforeEach(async () => {
    c = await writeCluster();
  });
  afterEach(() => c.close());

  async function mismatches(names: string[], setup: Array<{ path: string; body: string }> = [], bodies: Record<string, Buffer> = {}) {
    const results = await replayExchanges(c.api.url, names, bodies, setup);
    expect(results.length).toBe(names.length);
    return results.filter((r) => r.actual !== r.expected);
  }

  it('w2: updates', async () => {
    // An Endpoints PUT with `subsets: []`: Go drops the empty list (omitempty), which needs the schema.
    expect(await mismatches(['w1-create-configmap', ...pick(/^w2-/, [/endpoints/])])).toEqual([]);
  });

  it('w3: merge and JSON patches', async () => {
    expect(await mismatches(['w1-create-content-type-with-charset', ...pick(/^w3-(setup-create-cm-p|patch-)/, [/strategic-deployment/, /deployment/, /manager-c-after-apply/, /empty-noop/, /unknown-field/])])).toEqual([]);
  });

  it('w3: strategic merge patches of a Deployment: the stored object in Go struct key order', async () => {
    expect(await mismatches(['w3-setup-create-deployment-web', ...pick(/^w3-patch-strategic-deployment-/)])).toEqual([]);
  });

  it('a body with its keys in another order is stored in Go struct order at every depth (the real apiserver’s bytes)', async () => {
    const reversed = (v: unknown): unknown => {
      if (Array.isArray(v)) return v.map(reversed);
      if (v === null || typeof v !== 'object') return v;
      return Object.fromEntries(Object.entries(v).reverse().map(([k, x]) => [k, reversed(x)]));
    };
    const body = Buffer.from(JSON.stringify(reversed(JSON.parse(writeExchange('w3-setup-create-deployment-web').requestBody.toString('utf8')))));
    expect(body.toString()).toMatch(/^\{"spec":\{"template":\{"spec":\{"containers":\[\{"image"/);
    expect(await mismatches(['w3-setup-create-deployment-web', ...pick(/^w3-patch-strategic-deployment-/)], [], { 'w3-setup-create-deployment-web': body })).toEqual([]);
  });

  it('w4: deletes of ConfigMaps, finalizers, preconditions', async () => {
    const cm = (name: string) => ({ path: '/api/v1/namespaces/w/configmaps', body: `{"metadata":{"name":"${name}"},"data":{"k":"v"}}` });
    expect(await mismatches(pick(/^w4-/, [/pod/, /namespace/, /deployment/, /orphaned/, /collection/, /list-after/]), [cm('cm-del'), cm('cm-pre')])).toEqual([]);
  });

  it('w5: dry run', async () => {
    expect(await mismatches(['w1-create-configmap', 'w3-setup-create-cm-p', ...pick(/^w5-/, [/deployment/, /dryrun-update/, /dryrun-patch/, /after-dryrun-update/])])).toEqual([]);
  });
});

describe('serve writes: fieldValidation', () => {
  let c: WriteCluster;
  beforeEach(async () => {
    c = await writeCluster();
  });
  afterEach(() => c.close());

  it('w6: unknown fields under Warn, Strict, Ignore and the default, in creates and patches', async () => {
    // The merge and JSON patch 422s quote the whole patched object (uid, timestamps inside a
    // string): compared below with those parts masked.
    const names = pick(/^w6-(unknown-field|patch-(merge|json|strategic)-unknown-field)/, [/invalid-name/]);
    expect(names.length).toBeGreaterThanOrEqual(9);
    const results = await replayExchanges(c.api.url, names);
    const unescape = (s: string) => s.replace(/\\+"/g, '"');
    const quoted = (s: string) => unescape(s).replace(/"uid":"[^"]*"/g, '"uid":"<uid>"').replace(/"(creationTimestamp|time)":"[^"]*"/g, '"$1":"<ts>"').replace(/"resourceVersion":"\d+"/g, '"resourceVersion":"<rv>"');
    expect(results.filter((r) => quoted(r.actual) !== quoted(r.expected))).toEqual([]);
  });

  it('w6: duplicate fields (JSON and apply YAML) under Warn, Strict, Ignore and the default, with the apiserver’s Warning headers', async () => {
    const names = pick(/^w6-(duplicate-field|unknown-and-duplicate|apply-duplicate-field|unknown-field-default-invalid-name)/);
    expect(names.length).toBe(9);
    const results = await replayExchanges(c.api.url, names);
    const differs = results.filter((r) => r.actual !== r.expected || JSON.stringify(r.actualWarnings) !== JSON.stringify(r.expectedWarnings));
    expect(differs).toEqual([]);
    expect(results.find((r) => r.name === 'w6-duplicate-field-warn')!.actualWarnings).toEqual(['299 - "duplicate field \\"data\\""']);
  });

  it('w6: nested duplicates and a YAML create body: paths and go-yaml lines', async () => {
    const post = (query: string, type: string, body: string) => send(`${c.api.url}/api/v1/namespaces/w/configmaps${query}`, 'POST', { 'Content-Type': type }, body);
    const json = '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"n1","labels":{"a":"1","a":"2"},"zz":1},"data":{"k":"v"}}';
    const strict = await post('?fieldValidation=Strict', 'application/json', json);
    expect(strict.status).toBe(400);
    expect(JSON.parse(strict.body).message).toBe('ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: duplicate field "metadata.labels.a", unknown field "metadata.zz"');
    const warned = await post('', 'application/json', json);
    expect(warned.status).toBe(201);
    expect(warned.warnings).toEqual(['299 - "duplicate field \\"metadata.labels.a\\""', '299 - "unknown field \\"metadata.zz\\""']);
    expect(JSON.parse(warned.body).metadata.labels).toEqual({ a: '2' });
    const yaml = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: n2\ndata:\n  k: v\n  k: w\n';
    const yamlStrict = await post('?fieldValidation=Strict', 'application/yaml', yaml);
    expect(yamlStrict.status).toBe(400);
    expect(JSON.parse(yamlStrict.body).message).toBe('ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: error converting YAML to JSON: yaml: unmarshal errors:\n  line 7: key "k" already set in map');
    const yamlWarn = await post('', 'application/yaml', yaml);
    expect(yamlWarn.status).toBe(201);
    expect(yamlWarn.warnings).toEqual(['299 - "line 7: key \\"k\\" already set in map"']);
    expect(JSON.parse(yamlWarn.body).data).toEqual({ k: 'w' });
  });

  it('w6: Warn and the default answer with the apiserver’s Warning headers; Ignore and Strict without', async () => {
    const cm = (name: string, query: string) => send(`${c.api.url}/api/v1/namespaces/w/configmaps${query}`, 'POST', { 'Content-Type': 'application/json' },
      `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"${name}","bogus":1},"data":{"k":"v"},"extraTop":"x"}`);
    for (const [query, warned] of [['', true], ['?fieldValidation=Warn', true], ['?fieldValidation=Ignore', false]] as const) {
      const reply = await cm(`w${query.length}`, query);
      expect(reply.status).toBe(201);
      expect(reply.warnings).toEqual(warned ? ['299 - "unknown field \\"metadata.bogus\\""', '299 - "unknown field \\"extraTop\\""'] : []);
      expect(JSON.parse(reply.body).extraTop).toBeUndefined();
    }
  });
});
