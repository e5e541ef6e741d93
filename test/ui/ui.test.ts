/**
 * The UI in a real browser: Debian's chromium (/usr/bin/chromium) driven by playwright-core,
 * headless, against `startUi` on 127.0.0.1:0, on the example recording and on a recording made
 * through record with an injected 410; and the HTML report opened from file:// with no request.
 * Screenshots go to test/ui/artifacts/ (git-ignored).
 */
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { describeBrowser, haveChromium, launchBrowser, openPage as openBrowserPage } from '../support/browser';
import { inspectRecording } from '../../src/inspect';
import { startUi, writeReport, type UiServer } from '../../src/ui';
import { kubectl } from '../faults/clients';
import { json } from '../support/http-client';
import { exchangeCount } from '../support/recording-builder';
import { recordSession, type RecordedSession } from '../support/record-session';

const EXAMPLE = join(__dirname, '..', '..', 'recordings', 'examples', 'configmaps.db');
const ARTIFACTS = join(__dirname, 'artifacts');
/** In the example: cm-03 is deleted by the watch event that arrives at this instant (ms since the epoch). */
const CM03_DELETED_AT = 1795256124255.4429;


let browser: Browser;

beforeAll(async () => {
  if (!haveChromium) return;
  mkdirSync(ARTIFACTS, { recursive: true });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const openPage = (url: string): Promise<Page> => openBrowserPage(browser, url);

async function waitFor(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Shift-drags a range over the example's timeline from 20% to 50% of its span (which holds cm-02's
 * RV 112 and cm-03's deletion, not RV 107): the problems list, the objects view and time travel show
 * the range; "clear range" brings every view back.
 */
async function brushExample(page: Page): Promise<void> {
  await page.click('.tab[data-tab="timeline"]');
  await page.dblclick('.chart', { position: { x: 50, y: 30 } }); // reset zoom: the view is the whole span
  await page.waitForSelector('#timeline .clear-range[hidden]', { state: 'attached' });
  const { x, y, width, height } = (await (await page.$('.chart'))!.boundingBox())!;
  await page.keyboard.down('Shift');
  await page.mouse.move(x + width * 0.2, y + height - 5);
  await page.mouse.down();
  await page.mouse.move(x + width * 0.35, y + height - 5);
  await page.mouse.move(x + width * 0.5, y + height - 5);
  await page.mouse.up();
  await page.keyboard.up('Shift');
  await page.waitForSelector('#timeline .clear-range:not([hidden])');
  expect(await page.textContent('#timeline .range')).toContain('filtered');
  await page.waitForSelector('.problems[data-listed="0"]');
  expect(await page.textContent('.problems')).toBe('none in the range');

  await page.click('.tab[data-tab="objects"]');
  await page.click('.object[data-name="cm-02"]');
  // The history of the object opened before (cm-03, reopened for the range) stays until cm-02's replaces it.
  await page.waitForSelector('.history[data-name="cm-02"][data-in-range="1"]');
  expect(await page.$$eval('.revision.in-range', (els) => els.map((e) => e.getAttribute('data-rv')))).toEqual(['112']);
  expect(await page.$$eval('.revision.out-of-range', (els) => els.map((e) => e.getAttribute('data-rv')))).toEqual(['107']);
  expect(await page.textContent('.range-note')).toContain('1 of 2 revisions first seen in the range');

  await page.click('.tab[data-tab="time-travel"]');
  const scrubber = () => page.$eval('#scrubber', (el) => ({ value: Number((el as any).value), max: Number((el as any).max), min: Number((el as any).min) }));
  const ranged = await scrubber();
  const end = ranged.min + (ranged.max - ranged.min) * 0.5;
  expect(Math.abs(ranged.value - end)).toBeLessThan((ranged.max - ranged.min) * 0.02);
  await page.waitForSelector(`#state[data-at="${ranged.value}"]`);
  expect(await page.$('.obj[data-key="configmaps/demo/cm-03"]')).toBeNull(); // deleted inside the range
  expect(await page.$('.scrubber-range:not([hidden])')).not.toBeNull();
  await page.click('.tab[data-tab="exchanges"]');
  const total = await page.$eval('#exchanges', (el) => Number(el.getAttribute('data-total')));
  expect(total).toBeLessThan(17);

  await page.click('.tab[data-tab="timeline"]');
  await page.click('#timeline .clear-range');
  await page.waitForSelector('#timeline .clear-range[hidden]', { state: 'attached' });
  await page.waitForFunction(() => (globalThis as any).document.querySelector('.problems').textContent === 'none');
  await page.waitForSelector('#exchanges[data-total="17"]', { state: 'attached' });
  await page.waitForSelector('.history[data-in-range="2"]', { state: 'attached' });
  expect(await page.$$('.revision.out-of-range')).toHaveLength(0);
  expect(await page.$$('.range-note')).toHaveLength(0);
  const cleared = await scrubber();
  expect(cleared.max - cleared.value).toBeLessThan(1);
  await page.waitForSelector(`#state[data-at="${cleared.value}"]`, { state: 'attached' });
  expect(await page.$('.scrubber-range[hidden]')).not.toBeNull();
}

const timelineCount = (page: Page, name: string) => page.$eval('#timeline', (el, n) => Number(el.getAttribute(`data-${n}`)), name);

describeBrowser('kubetape ui on the example recording', () => {
  let ui: UiServer;
  let page: Page;
  beforeAll(async () => {
    ui = await startUi({ db: EXAMPLE, listen: '127.0.0.1:0', summary: inspectRecording });
    page = await openPage(ui.url);
  });
  afterAll(async () => {
    await page?.close();
    await ui?.close();
  });

  it('the timeline has a lane per client (3) or per resource (2), both watches as bars and their 9 events as marks', async () => {
    expect(await timelineCount(page, 'lanes')).toBe(3);
    expect(await page.$$eval('.lane-label', (els) => els.map((e) => e.getAttribute('title')))).toEqual([
      'kubectl-dispatcher/v1.0 (linux/amd64)', 'kubectl/v1.32.4 (linux/amd64) kubernetes/4cb5f07', '(no User-Agent)',
    ]);
    expect(await timelineCount(page, 'bars')).toBe(2);
    expect(await timelineCount(page, 'events')).toBe(9);
    expect(await timelineCount(page, 'ticks')).toBe(15);
    expect(await timelineCount(page, 'problems')).toBe(0);
    await page.screenshot({ path: join(ARTIFACTS, 'example-timeline.png'), clip: { x: 0, y: 0, width: 1400, height: 260 } });
    await page.selectOption('#lane-by', 'resource');
    await page.waitForSelector('#timeline[data-by="resource"]');
    expect(await timelineCount(page, 'lanes')).toBe(2);
    expect(await page.$$eval('.lane-label', (els) => els.map((e) => e.getAttribute('title')))).toEqual(['(non-resource)', 'configmaps']);
  });

  it('wheel zooms in (the view refetched holds fewer ticks), double-click resets', async () => {
    await page.selectOption('#lane-by', 'client');
    await page.waitForSelector('#timeline[data-by="client"][data-ticks="15"]');
    const box = (await page.$('.chart'))!.boundingBox();
    const { x, y, width } = (await box)!;
    await page.mouse.move(x + width * 0.25, y + 30); // over the RV band: a click there opens nothing
    for (let i = 0; i < 10; i++) await page.mouse.wheel(0, -200);
    await page.waitForFunction(() => Number((globalThis as any).document.querySelector('#timeline').dataset.ticks) < 15);
    expect(await page.textContent('#timeline .range')).not.toContain('(1.990 s)');
    await page.mouse.dblclick(x + width * 0.25, y + 30);
    await page.waitForSelector('#timeline[data-ticks="15"]');
    expect(await page.textContent('#timeline .range')).toContain('(1.990 s)');
    await page.selectOption('#lane-by', 'resource');
    await page.waitForSelector('#timeline[data-by="resource"]');
  });

  it('filtering the exchanges by resource hides the others, in the table and on the timeline', async () => {
    await page.click('.tab[data-tab="exchanges"]');
    await page.waitForSelector('#exchanges[data-total="17"]');
    await page.selectOption('#filter-resource', 'configmaps');
    await page.waitForSelector('#exchanges[data-total="10"]');
    const resources = await page.$$eval('#exchanges tbody tr', (rows) => rows.map((r) => r.getAttribute('data-resource')));
    expect(resources).toHaveLength(10);
    expect(new Set(resources)).toEqual(new Set(['configmaps']));
    await page.click('.tab[data-tab="timeline"]');
    await page.waitForSelector('#timeline[data-lanes="1"]');
    expect(await page.$$eval('.lane-label', (els) => els.map((e) => e.getAttribute('title')))).toEqual(['configmaps']);
    await page.click('.tab[data-tab="exchanges"]');
    await page.selectOption('#filter-resource', '');
    await page.waitForSelector('#exchanges[data-total="17"]');
  });

  it('a watch opens with its events one per row, decoded from protobuf', async () => {
    await page.click('#exchanges tbody tr[data-id="15"]');
    await page.waitForSelector('#detail[data-id="15"] .events');
    const rows = await page.$$eval('#detail .events tbody tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].slice(1).map((td) => td.textContent)));
    expect(rows).toEqual(['01', '02', '04', '05', '06', '07'].map((n, i) => ['ADDED', `demo/cm-${n}`, ['106', '112', '109', '110', '111', '113'][i]]));
    await page.screenshot({ path: join(ARTIFACTS, 'example-exchange.png') });
  });

  it('protobuf bodies are decoded beyond metadata: a list’s items and a watch’s events show their data', async () => {
    await page.click('#exchanges tbody tr[data-id="14"]');
    await page.waitForSelector('#detail[data-id="14"] .body-text');
    expect(await page.textContent('#detail .body small')).toContain('application/vnd.kubernetes.protobuf');
    const list = JSON.parse((await page.textContent('#detail .body-text'))!);
    expect(list.kind).toBe('ConfigMapList');
    expect(list.items[0]).toMatchObject({ kind: 'ConfigMap', metadata: { name: 'cm-01', namespace: 'demo' }, data: { k: 'v01' } });
    expect(list.items[0].metadata.managedFields[0].fieldsV1).toEqual({ 'f:data': { '.': {}, 'f:k': {} } });
    await page.click('#exchanges tbody tr[data-id="15"]');
    await page.waitForSelector('#detail[data-id="15"] .events');
    const event = JSON.parse((await page.$eval('#detail .events tbody tr', (tr) => tr.getAttribute('title')))!);
    expect(event).toMatchObject({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'cm-01', resourceVersion: '106' }, data: { k: 'v01' } });
  });

  it('the object view shows the revisions of cm-02 with the diff between them', async () => {
    await page.click('.tab[data-tab="objects"]');
    await page.click('.object[data-name="cm-02"]');
    await page.waitForSelector('.history[data-name="cm-02"][data-revisions="2"]');
    expect(await page.$$eval('.revision', (els) => els.map((e) => e.getAttribute('data-rv')))).toEqual(['107', '112']);
    const added = await page.$$eval('.revision[data-rv="112"] .diff .add', (els) => els.map((e) => e.textContent));
    const removed = await page.$$eval('.revision[data-rv="112"] .diff .del', (els) => els.map((e) => e.textContent));
    expect(added.join('\n')).toContain('"resourceVersion": "112"');
    expect(removed.join('\n')).toContain('"resourceVersion": "107"');
    await page.screenshot({ path: join(ARTIFACTS, 'example-objects.png') });
    await page.click('.object[data-name="cm-03"]');
    await page.waitForSelector('.revision.deleted[data-rv="114"]');
  });

  it('the scrubber shows cm-03 before its deletion and not after', async () => {
    await page.click('.tab[data-tab="time-travel"]');
    const at = async (t: number) => {
      await page.$eval('#scrubber', (el, v) => {
        (el as unknown as { value: string }).value = String(v);
        el.dispatchEvent(new (globalThis as any).Event('input'));
      }, t);
      await page.waitForSelector(`#state[data-at="${t}"]`);
    };
    await at(Math.floor(CM03_DELETED_AT) - 1);
    expect(await page.$('.obj[data-key="configmaps/demo/cm-03"]')).not.toBeNull();
    expect(await page.$$eval('#state .watch', (els) => els.map((e) => e.getAttribute('data-exchange')))).toEqual(['13']);
    await at(Math.ceil(CM03_DELETED_AT) + 1);
    expect(await page.$('.obj[data-key="configmaps/demo/cm-03"]')).toBeNull();
    expect(await page.$('.obj[data-key="configmaps/demo/cm-07"]')).not.toBeNull();
    await page.screenshot({ path: join(ARTIFACTS, 'example-time-travel.png') });
  });

  it('a brushed range filters the problems list, marks the objects view’s revisions in it and moves time travel to its end; clear range undoes it everywhere', async () => {
    await brushExample(page);
  });

  it('the summary is inspect’s', async () => {
    await page.click('.tab[data-tab="summary"]');
    await page.waitForSelector('#summary h3');
    expect(await page.textContent('#summary h3')).toContain('17 exchanges');
  });

  it('answers only loopback Host names, and pages the API', async () => {
    expect((await json(ui.url, '/api/summary', { Host: 'evil.example:80' })).status).toBe(403);
    const page1 = await json(ui.url, '/api/exchanges?limit=5&offset=5');
    expect(page1.body.total).toBe(17);
    expect(page1.body.rows.map((r: { id: number }) => r.id)).toEqual([6, 7, 8, 9, 10]);
    await expect(startUi({ db: EXAMPLE, listen: '0.0.0.0:0', summary: inspectRecording })).rejects.toThrow(/loopback address only/);
  });
});

describeBrowser('kubetape ui on a recording with an injected 410', () => {
  let session: RecordedSession;
  let ui: UiServer;
  let page: Page;
  beforeAll(async () => {
    session = await recordSession('kubetape-ui-410-', async ({ kubeconfig, dir }) => {
      const res = await kubectl(kubeconfig, join(dir, 'cache'), ['get', 'configmaps', '--chunk-size=2']);
      expect(res.code).toBe(1);
    }, { faults: [{ name: 'expire-second-page', match: { verb: 'list', resource: 'configmaps', query: { continue: 'present' } }, action: { type: 'expire-continue' }, times: 1 }] });
    ui = await startUi({ db: session.db, listen: '127.0.0.1:0', summary: inspectRecording });
    page = await openPage(ui.url);
  });
  afterAll(async () => {
    await page?.close();
    await ui?.close();
    session?.remove();
  });

  it('the 410 is marked and listed; clicking its mark opens the exchange with its Status', async () => {
    expect(await timelineCount(page, 'problems')).toBe(1);
    expect(await page.$$eval('.problem', (els) => els.map((e) => e.getAttribute('data-kind')))).toEqual(['410']);
    await page.screenshot({ path: join(ARTIFACTS, 'faults-timeline.png'), clip: { x: 0, y: 0, width: 1400, height: 260 } });
    await page.click('.problem-mark[data-kind="410"]');
    await page.waitForSelector('#detail .status-line[data-status="410"]');
    const line = await page.textContent('#detail .status-line');
    expect(line).toContain('Expired: The provided continue parameter is too old');
    expect(line).toContain('fault rule expire-second-page');
    expect(await page.textContent('#detail .body-text')).toContain('"reason": "Expired"');
    await page.screenshot({ path: join(ARTIFACTS, 'faults-exchange.png') });
  });

  it('a brushed range lists only the problems in it: none at the very start (the first list page), the 410 over the whole span; clear range lists it again', async () => {
    // The window narrows while another tab is shown: back on the timeline, its marks stand where the
    // chart now puts them at once, not where they were laid out before (nor a moment later).
    await page.click('.tab[data-tab="exchanges"]');
    await page.setViewportSize({ width: 1000, height: 800 });
    const markX = () => page.$eval('.problem-mark[data-kind="410"]', (el) => (el as unknown as { getBoundingClientRect(): { x: number } }).getBoundingClientRect().x);
    await page.click('.tab[data-tab="timeline"]');
    const atOnce = await markX();
    await page.waitForTimeout(400);
    expect(Math.abs((await markX()) - atOnce)).toBeLessThan(1);
    await page.setViewportSize({ width: 1400, height: 800 });
    await page.waitForTimeout(400);
    const chart = (await (await page.$('.chart'))!.boundingBox())!;
    const y = chart.y + chart.height - 2;
    const brush = async (from: number, to: number) => {
      await page.keyboard.down('Shift');
      await page.mouse.move(from, y);
      await page.mouse.down();
      await page.mouse.move((from + to) / 2, y);
      await page.mouse.move(to, y);
      await page.mouse.up();
      await page.keyboard.up('Shift');
    };
    await brush(chart.x + 2, chart.x + 8);
    await page.waitForSelector('.problems[data-listed="0"]');
    expect(await page.textContent('.problems')).toBe('none in the range');
    expect(await timelineCount(page, 'problems')).toBe(1); // the mark stays on the timeline
    await brush(chart.x + 2, chart.x + chart.width - 2);
    await page.waitForSelector('.problems[data-listed="1"]');
    expect(await page.$$eval('.problem', (els) => els.map((e) => e.getAttribute('data-kind')))).toEqual(['410']);
    await brush(chart.x + 2, chart.x + 8);
    await page.waitForSelector('.problems[data-listed="0"]');
    await page.click('#timeline .clear-range');
    await page.waitForSelector('.problems[data-listed="1"]');
    expect(await page.textContent('#timeline .range')).not.toContain('filtered');
  });
});

describeBrowser('kubetape ui on a recording still being written', () => {
  it('follows it: exchanges recorded after the page opened appear without a reload', async () => {
    let page: Page | undefined;
    let ui: UiServer | undefined;
    const session = await recordSession('kubetape-ui-live-', async ({ kubeconfig, dir }) => {
      expect((await kubectl(kubeconfig, join(dir, 'cache'), ['get', 'configmaps'])).code).toBe(0);
      const db = join(dir, 'session.db');
      await waitFor(() => exchangeCount(db) > 0);
      ui = await startUi({ db, listen: '127.0.0.1:0', summary: inspectRecording });
      try {
        page = await openPage(ui.url);
        const before = await timelineCount(page, 'exchanges');
        expect(before).toBeGreaterThan(0);
        expect((await kubectl(kubeconfig, join(dir, 'cache'), ['get', 'configmaps', 'cm-01'])).code).toBe(0);
        await page.waitForFunction((n) => Number((globalThis as any).document.querySelector('#timeline').getAttribute('data-exchanges')) > n, before, { timeout: 20_000 });
        await page.click('.tab[data-tab="exchanges"]');
        await page.waitForSelector('#exchanges tbody tr td.path[title="/api/v1/namespaces/default/configmaps/cm-01"]');
      } finally {
        await page?.close();
        await ui?.close();
      }
    });
    session.remove();
  });
});

describeBrowser('inspect --html', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'kubetape-ui-report-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes one file that opens from file:// with no network request and shows the same views', async () => {
    const out = join(dir, 'report.html');
    const bytes = writeReport(EXAMPLE, out, inspectRecording);
    expect(statSync(out).size).toBe(bytes);
    const requests: string[] = [];
    const url = pathToFileURL(out).href;
    const page = await openBrowserPage(browser, url, requests);
    expect(await timelineCount(page, 'lanes')).toBe(3);
    expect(await timelineCount(page, 'events')).toBe(9);
    await page.click('.tab[data-tab="objects"]');
    await page.click('.object[data-name="cm-02"]');
    await page.waitForSelector('.history[data-name="cm-02"][data-revisions="2"]');
    await page.click('.tab[data-tab="time-travel"]');
    await page.waitForSelector('#state[data-objects="6"]');
    await brushExample(page);
    await page.click('.tab[data-tab="exchanges"]');
    await page.selectOption('#filter-resource', 'configmaps');
    await page.waitForSelector('#exchanges[data-total="10"]');
    await page.click('#exchanges tbody tr[data-id="15"]');
    await page.waitForSelector('#detail[data-id="15"] .events');
    await page.screenshot({ path: join(ARTIFACTS, 'report.png') });
    expect(requests).toEqual([url]);
    await page.close();
  });
});
