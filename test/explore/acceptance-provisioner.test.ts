/**
 * Acceptance (issue 20) on one of examples/controllers/ in the suite: explore finds the
 * provisioner's intermediate-state bug and nothing on its fixed variant. The three examples
 * (cleaner, scaler, provisioner) are explored by bench/explore.js.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { explore } from '../../src/explore';

jest.setTimeout(180_000);

const dir = resolve(__dirname, '../../examples/controllers/provisioner');
const run = (variant: string) =>
  explore({ controller: `node ${join(dir, `${variant}.js`)}`, workload: join(dir, 'workload.yaml'), out: mkdtempSync(join(tmpdir(), `kubetape-accept-${variant}-`)), parallel: 2, settleMs: 800 });

describe('explore on examples/controllers/provisioner', () => {
  it('finds the buggy provisioner’s duplicate volume in the intermediate-state class', async () => {
    const { findings } = await run('buggy');
    expect(findings.length).toBeGreaterThan(0);
    expect(new Set(findings.map((f) => f.class))).toEqual(new Set(['intermediate-state']));
    expect(findings[0]!.diff.extra.some((k) => /^configmaps demo\/claim-[ab]-\*$/.test(k))).toBe(true);
  });

  it('finds nothing on the fixed provisioner', async () => {
    const { summary, findings } = await run('fixed');
    expect(summary.plansRun).toBe(summary.plans);
    expect(findings).toEqual([]);
  });
});
