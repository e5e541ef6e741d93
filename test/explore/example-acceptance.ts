/**
 * Acceptance (issue 20) on a controller of examples/controllers/, one test file each
 * (acceptance-<name>.test.ts, so jest's workers share them): explore finds the buggy variant's bug
 * in its class and nothing on the fixed variant, every plan run. bench/explore.js --repeat N runs
 * the same explorations N times and says whether each came out so.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { explore } from '../../src/explore';
import type { FindingClass } from '../../src/explore';

/** Each example, its bug's class, and what the bug leaves in the end state (a finding's difference, as JSON). */
export const EXAMPLES: Record<string, [FindingClass, RegExp]> = {
  provisioner: ['intermediate-state', /"extra":\["configmaps demo\/claim-[ab]-\*"/],
  scaler: ['unobserved-state', /"object":"configmaps demo\/set-a-[0-2]","path":"data.version","expected":"\\"v2\\"","got":"\\"v1\\""/],
  cleaner: ['stale-state', /"missing":\["configmaps demo\/child-a"\]/],
};

async function exploreExample(name: string, variant: 'buggy' | 'fixed') {
  const dir = resolve(__dirname, '../../examples/controllers', name);
  const out = mkdtempSync(join(tmpdir(), `kubetape-accept-${name}-${variant}-`));
  try {
    return await explore({ controller: `node ${join(dir, `${variant}.js`)}`, workload: join(dir, 'workload.yaml'), out, parallel: 3, settleMs: 800 });
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

export function describeAcceptance(name: string): void {
  const [bugClass, shows] = EXAMPLES[name]!;
  describe(`explore on examples/controllers/${name}`, () => {
    it(`finds the buggy ${name}'s bug in the ${bugClass} class`, async () => {
      const { summary, findings } = await exploreExample(name, 'buggy');
      expect(summary.plansRun).toBe(summary.plans);
      expect(summary.findings[bugClass]).toBeGreaterThan(0);
      const inClass = findings.filter((f) => f.class === bugClass);
      expect(inClass.every((f) => f.reproduced)).toBe(true);
      expect(inClass.map((f) => JSON.stringify(f.diff))).toEqual(expect.arrayContaining([expect.stringMatching(shows)]));
    });

    it(`finds nothing on the fixed ${name}`, async () => {
      const { summary, findings, flaky } = await exploreExample(name, 'fixed');
      expect(summary.plansRun).toBe(summary.plans);
      expect(summary.plansRun).toBeGreaterThan(0);
      expect(findings).toEqual([]);
      expect(flaky).toEqual([]);
    });
  });
}
