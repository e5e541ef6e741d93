import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { httpRequest } from '../support/http-client';

const root = join(__dirname, '..', '..');

/** Runs `node -e CODE` in `cwd` and returns its stdout, failing on a non-zero exit. */
function node(code: string, cwd = root): string {
  const run = spawnSync(process.execPath, ['-e', code], { cwd, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`node -e exited ${run.status}: ${run.stderr}`);
  return run.stdout;
}

/** How bin/kubetape.js loads the CLI: the one-file bundle and its code cache, or the modules of dist/ (built CLI: `npm run build` first, as `npm test` does). */
describe('bin/load-cli.js', () => {
  it('loads the bundle of the build, with a code cache this Node accepts', () => {
    const out = node(`
      const { script, cli } = require('./bin/load-cli.js').loadCli();
      console.log(JSON.stringify({ bundle: Boolean(script), rejected: script && script.cachedDataRejected, main: typeof cli.main }));
    `);
    expect(JSON.parse(out)).toEqual({ bundle: true, rejected: false, main: 'function' });
  });

  it('starts serve without what serve does not need yet: the other modes, the YAML library, Ajv', () => {
    const out = node(`
      const write = process.stdout.write.bind(process.stdout);
      process.stdout.write = (chunk) => {
        if (!String(chunk).includes(' listening on ')) return true;
        const loaded = Object.keys(require.cache);
        const has = (part) => loaded.some((f) => f.includes(part));
        write(JSON.stringify({ serve: has('/dist/serve/index.js'), record: has('/dist/record/'), explore: has('/dist/explore/'), ui: has('/dist/ui/ui-server.js'), yaml: has('/node_modules/yaml/'), ajv: has('/node_modules/ajv/') }));
        process.exit(0);
      };
      require('./dist/cli/main.js').main(['serve', '--listen', '127.0.0.1:0', '--log-level', 'silent']);
    `);
    expect(JSON.parse(out)).toEqual({ serve: true, record: false, explore: false, ui: false, yaml: false, ajv: false });
  });

  // The CEL library is an ES module: Node 20.19 and later require() it from the bundle; where
  // require() cannot (--no-experimental-require-module makes this Node one of those), the
  // modules of dist/ are loaded and import() it.
  it.each([[[]], [['--no-experimental-require-module']]])('runs a CRD validation rule (CEL: an ES-module-only package) through the CLI, node %j', async (flags) => {
    const crds = join(root, 'test', 'fixtures', 'crds-cel', 'backups.yaml');
    const child = spawn(process.execPath, [...flags, join(root, 'bin', 'kubetape.js'), 'serve', '--crds', crds, '--listen', '127.0.0.1:0', '--log-level', 'silent'], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          const m = /listening on (http:\S+)\n/.exec(out);
          if (m) resolve(m[1]!);
        });
        child.once('exit', (code) => reject(new Error(`kubetape serve exited ${code}`)));
      });
      const body = JSON.stringify({ apiVersion: 'example.com/v1', kind: 'Backup', metadata: { name: 'x-1' }, spec: { copies: 1, minCopies: 3 } });
      const res = await httpRequest(`${url}/apis/example.com/v1/namespaces/default/backups`, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
      expect(res.status).toBe(422);
      expect(JSON.parse(res.body.toString()).details.causes).toEqual([
        { reason: 'FieldValueInvalid', message: 'Invalid value: "object": name must start with b-', field: '<nil>' },
        { reason: 'FieldValueInvalid', message: 'Invalid value: "object": copies must be at least minCopies', field: 'spec' },
      ]);
    } finally {
      child.kill('SIGKILL');
    }
  });

  describe('choosing between bundle and modules', () => {
    let dir: string;
    beforeAll(() => {
      // A package of two stand-ins: the loader as shipped, a "module" CLI and a "bundle" CLI.
      dir = mkdtempSync(join(tmpdir(), 'kubetape-load-cli-'));
      mkdirSync(join(dir, 'bin'));
      mkdirSync(join(dir, 'dist', 'cli'), { recursive: true });
      mkdirSync(join(dir, 'dist', 'bundle'));
      copyFileSync(join(root, 'bin', 'load-cli.js'), join(dir, 'bin', 'load-cli.js'));
      mkdirSync(join(dir, 'dist', 'serve'));
      writeFileSync(join(dir, 'dist', 'cli', 'main.js'), "exports.main = () => 'modules';\n");
      writeFileSync(join(dir, 'dist', 'serve', 'part.js'), '');
      writeFileSync(join(dir, 'dist', 'bundle', 'kubetape.js'), "exports.main = () => 'bundle ' + require('node:path').basename(__dirname);\n");
      writeFileSync(join(dir, 'dist', 'bundle', 'inputs.json'), JSON.stringify(['cli/main.js', 'serve/part.js']));
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    const which = () => node("console.log(require('./bin/load-cli.js').loadCli().cli.main())", dir).trim();
    const age = (file: string, seconds: number) => utimesSync(join(dir, 'dist', file), seconds, seconds);

    const allAged = (seconds: number) => ['cli/main.js', 'serve/part.js', 'bundle/kubetape.js'].forEach((f) => age(f, seconds));

    it('takes the bundle when it is as new as the modules it was made from (a packed package: every file has the same time)', () => {
      allAged(1_000_000);
      expect(which()).toBe('bundle bundle');
    });

    it('takes the modules when any of them was built after the bundle (tsc alone, or an incremental tsc that rewrote one file)', () => {
      allAged(1_000_000);
      age('cli/main.js', 2_000_000);
      expect(which()).toBe('modules');
      allAged(1_000_000);
      age('serve/part.js', 2_000_000);
      expect(which()).toBe('modules');
    });

    it('runs a bundle without its cache; takes the modules without the list of its inputs, or without the bundle', () => {
      allAged(1_000_000);
      rmSync(join(dir, 'dist', 'bundle', 'kubetape.js.cache'), { force: true });
      expect(which()).toBe('bundle bundle');
      rmSync(join(dir, 'dist', 'bundle', 'inputs.json'));
      expect(which()).toBe('modules');
      writeFileSync(join(dir, 'dist', 'bundle', 'inputs.json'), JSON.stringify(['cli/main.js', 'serve/part.js']));
      allAged(1_000_000);
      rmSync(join(dir, 'dist', 'bundle', 'kubetape.js'));
      expect(which()).toBe('modules');
    });
  });
});
