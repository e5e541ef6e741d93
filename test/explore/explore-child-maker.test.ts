/**
 * End to end: `kubetape explore` on a tiny controller whose buggy variant leaves a duplicate child
 * when it crashes between its two writes (intermediate state), and on its fixed twin.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { explore } from '../../src/explore';

jest.setTimeout(120_000);

const fixture = resolve(__dirname, 'fixtures/child-maker');
const bin = resolve(__dirname, '../../bin/kubetape.js');
const controller = (variant: string) => `VARIANT=${variant} node ${join(fixture, 'controller.mjs')}`;

describe('explore on the child-maker controller', () => {
  const buggyOut = mkdtempSync(join(tmpdir(), 'kubetape-explore-buggy-'));

  it('flags the buggy variant in the intermediate-state class, with the plan that reproduces it', async () => {
    const { summary, findings } = await explore({ controller: controller('buggy'), workload: join(fixture, 'workload.yaml'), out: buggyOut, parallel: 2, settleMs: 800 });
    expect(summary.plansRun).toBe(summary.plans);
    expect(summary.plansGenerated['intermediate-state']).toBe(2);
    const crash = findings.find((f) => f.class === 'intermediate-state');
    expect(crash).toBeDefined();
    expect(crash!.explain).toMatch(/after its write 1 \(create configmaps demo\/parent-a-child-/);
    expect(crash!.diff.extra).toEqual(['configmaps demo/parent-a-child-*']);
    expect(crash!.diff.counts).toEqual([{ object: 'configmaps demo/parent-a-child-*', expected: { creates: 1, deletes: 0 }, got: { creates: 2, deletes: 0 } }]);
    expect(crash!.exchanges.some((e) => e.kind === 'perturbation')).toBe(true);
    expect(crash!.rerun).toBe(`kubetape explore rerun ${join(buggyOut, crash!.plan)}`);
    expect(readdirSync(buggyOut)).toEqual(expect.arrayContaining(['oracle.json', 'findings.json', 'flaky.json', 'summary.json', crash!.plan]));
    expect(JSON.parse(readFileSync(join(buggyOut, 'findings.json'), 'utf8'))).toHaveLength(findings.length);
  });

  it('finds nothing on the fixed variant', async () => {
    const out = mkdtempSync(join(tmpdir(), 'kubetape-explore-fixed-'));
    const { summary, findings } = await explore({ controller: controller('fixed'), workload: join(fixture, 'workload.yaml'), out, parallel: 2, settleMs: 800 });
    expect(summary.plansRun).toBeGreaterThanOrEqual(3);
    expect(findings).toEqual([]);
  });

  it('reports the results (exit 3, HTML page) and reruns a finding’s plan from its file', () => {
    const html = join(buggyOut, 'report.html');
    const report = spawnSync('node', [bin, 'explore', 'report', buggyOut, '--html', html], { encoding: 'utf8' });
    expect(report.status).toBe(3);
    expect(report.stdout).toMatch(/findings: \d+ \(stale-state \d+, unobserved-state \d+, intermediate-state [1-9]\)/);
    expect(existsSync(html)).toBe(true);
    expect(readFileSync(html, 'utf8')).toMatch(/perturbation: killed the controller after its write 1/);

    const plan = JSON.parse(readFileSync(join(buggyOut, 'findings.json'), 'utf8')).find((f: { class: string }) => f.class === 'intermediate-state').plan;
    const rerun = spawnSync('node', [bin, 'explore', 'rerun', join(buggyOut, plan)], { encoding: 'utf8', env: { ...process.env, KUBETAPE_LOG_LEVEL: 'silent' } });
    expect(rerun.stdout).toMatch(/extra: +configmaps demo\/parent-a-child-\*/);
    expect(rerun.status).toBe(3);
  });

  it('refuses a bad workload with exit 2, naming the step and the field', () => {
    const bad = spawnSync('node', [bin, 'explore', '--controller', 'true', '--workload', join(fixture, 'bad-workload.yaml'), '--out', join(buggyOut, 'bad')], { encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/step 2 \(wait\): field "wait.timeout"/);
  });
});
