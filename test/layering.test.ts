import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const script = join(__dirname, '..', 'scripts', 'check-layers.js');

function check(...args: string[]) {
  const run = spawnSync(process.execPath, [script, ...args], { encoding: 'utf8' });
  return { code: run.status, out: run.stdout, err: run.stderr };
}

describe('layering of src/ (scripts/check-layers.js)', () => {
  it('src/ imports only downward, with no cycles (beyond scripts/layers-allow.json)', () => {
    const { code, out } = check();
    expect(out).toBe('');
    expect(code).toBe(0);
  });

  it('prints the rank table', () => {
    const { code, out } = check('--print');
    expect(code).toBe(0);
    expect(out).toMatch(/^ 9 +src\/cli\//m);
    expect(out).toMatch(/^ 8 +src\/record\/ src\/replay\/ src\/serve\/ src\/inspect\//m);
  });

  describe('on a tree with violations', () => {
    let root: string;
    const file = (path: string, text: string) => {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    };
    beforeAll(() => {
      root = mkdtempSync(join(tmpdir(), 'kubetape-layers-'));
      file('src/wire/codec.ts', "import { handler } from '../serve/handler';\nexport const codec = handler;\n");
      file('src/serve/handler.ts', "export const handler = 1;\n");
      file('src/replay/server.ts', "import { handler } from '../serve/handler';\nexport const server = handler;\n");
      file('src/k8s/a.ts', "import type { B } from './b';\nexport type A = B;\n");
      file('src/k8s/b.ts', "// import { handler } from '../serve/handler';\nexport type { A as B } from './a';\n");
      file('src/k8s/c.test.ts', "import { handler } from '../serve/handler';\nexport const c = handler;\n");
    });
    afterAll(() => rmSync(root, { recursive: true, force: true }));

    it('fails with one line per upward import, peer import between modes, and cycle', () => {
      const { code, out } = check('--root', root);
      expect(code).toBe(1);
      // Not reported: the commented-out import in b.ts, and the unit test's import (tests are not checked).
      expect(out.trim().split('\n').sort()).toEqual([
        'cycle: src/k8s/a.ts <-> src/k8s/b.ts',
        'peer: src/replay/server.ts (replay) imports src/serve/handler.ts (serve, same rank 8)',
        'upward: src/wire/codec.ts (wire, rank 1) imports src/serve/handler.ts (serve, rank 8)',
      ]);
    });

    it('passes the lines the allow-list names, and only those', () => {
      file('scripts/layers-allow.json', JSON.stringify({ allow: ['cycle: src/k8s/a.ts <-> src/k8s/b.ts'] }));
      const { code, out } = check('--root', root);
      expect(code).toBe(1);
      expect(out).not.toMatch(/cycle/);
      expect(out).toMatch(/^upward: src\/wire\/codec.ts/m);
      rmSync(join(root, 'src/wire/codec.ts'));
      rmSync(join(root, 'src/replay/server.ts'));
      expect(check('--root', root).code).toBe(0);
    });
  });
});
