/**
 * End to end: `kubetape explore` on a tiny controller whose buggy variant leaves a duplicate child
 * when it crashes between its two writes (intermediate state), and on its fixed twin; the report,
 * its HTML page in a real browser (Debian's chromium driven by playwright-core, as test/ui does),
 * and the rerun.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { haveChromium, launchBrowser, openPage } from '../support/browser';
import { explore } from '../../src/explore';


/** Whether the process runs (a zombie left for its parent to reap does not). */
function alive(pid: number): boolean {
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

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
    expect(readFileSync(html, 'utf8')).toMatch(/killed the controller after its write 1 \(create configmaps demo\/parent-a-child-/);

    const plan = JSON.parse(readFileSync(join(buggyOut, 'findings.json'), 'utf8')).find((f: { class: string }) => f.class === 'intermediate-state').plan;
    const rerun = spawnSync('node', [bin, 'explore', 'rerun', join(buggyOut, plan)], { encoding: 'utf8', env: { ...process.env, KUBETAPE_LOG_LEVEL: 'silent' } });
    expect(rerun.stdout).toMatch(/extra: +configmaps demo\/parent-a-child-\*/);
    expect(rerun.status).toBe(3);
  });

  (haveChromium ? it : it.skip)('the HTML report opens from file:// with no request and shows each finding on the UI’s timeline, the perturbation marked', async () => {
    const html = join(buggyOut, 'report.html');
    const browser = await launchBrowser();
    try {
      const requests: string[] = [];
      const url = pathToFileURL(html).href;
      const page = await openPage(browser, url, requests);
      await page.click('.findings button[data-class="intermediate-state"]');
      await page.waitForSelector('#finding h2:has-text("intermediate-state")');
      // The UI's timeline over the recorded run: the workload's and the controller's lanes, the perturbation on the controller's.
      await page.waitForSelector('#timeline[data-lanes]');
      const lanes = await page.$$eval('#timeline .lane-label', (ls) => ls.map((l) => l.getAttribute('title')));
      expect(lanes).toEqual(expect.arrayContaining(['kubetape-explore/workload']));
      expect(lanes.length).toBeGreaterThanOrEqual(2);
      const mark = page.locator('#timeline .problem-mark[data-kind="perturbation"]');
      await expect(mark.count()).resolves.toBe(1);
      expect(await mark.getAttribute('title')).toMatch(/perturbation kill the controller \(SIGKILL\) right after its write 1/);
      const markLane = await mark.evaluate((m) => Math.round(parseFloat((m as unknown as { style: { top: string } }).style.top) / 30));
      expect(lanes[markLane]).not.toBe('kubetape-explore/workload');
      await expect(page.locator('#timeline .problem[data-kind="perturbation"]').count()).resolves.toBe(1);
      // The exchanges of the window around it, and one opened from the mark.
      await page.waitForSelector('#exchanges tbody tr');
      await mark.click();
      await page.waitForSelector('#detail[data-id]');
      // What explore saw, the perturbation's row highlighted.
      expect(await page.textContent('.run-log tr.perturbation')).toMatch(/perturbation: killed the controller after its write 1/);
      expect(requests).toEqual([url]);
    } finally {
      await browser.close();
    }
  });

  it('takes its controllers down with it when interrupted (SIGINT): exit 130, no process left behind', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kubetape-explore-sigint-'));
    const pidFile = join(dir, 'controller.pid');
    const child = spawn('node', [bin, 'explore', '--controller', `echo $$ > ${pidFile}; exec node ${join(fixture, 'controller.mjs')}`, '--workload', join(fixture, 'workload.yaml'), '--out', join(dir, 'out')], { stdio: 'ignore' });
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    const deadline = Date.now() + 20_000;
    while (!existsSync(pidFile) || readFileSync(pidFile, 'utf8').trim() === '') {
      if (Date.now() > deadline) throw new Error('the controller never started');
      await new Promise((r) => setTimeout(r, 50));
    }
    const pid = Number(readFileSync(pidFile, 'utf8'));
    expect(alive(pid)).toBe(true);
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    await new Promise((r) => setTimeout(r, 300));
    expect(alive(pid)).toBe(false);
  });

  it('refuses a bad workload with exit 2, naming the step and the field', () => {
    const bad = spawnSync('node', [bin, 'explore', '--controller', 'true', '--workload', join(fixture, 'bad-workload.yaml'), '--out', join(buggyOut, 'bad')], { encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/step 2 \(wait\): field "wait.timeout"/);
  });
});
