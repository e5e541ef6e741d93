/**
 * `kubetape ui` in a real browser (Debian's chromium through playwright-core) on the recording a
 * running `serve --out F` writes: kubectl's writes appear without a reload, and a compaction of
 * serve's store appears as the floor line in the resourceVersion band; on the example recording,
 * the band has a point for every answer that carried a resourceVersion.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { describeBrowser, haveChromium, launchBrowser, openPage as openBrowserPage } from '../support/browser';
import { inspectRecording } from '../../src/inspect';
import { exchangeCount } from '../support/recording-builder';
import { serve, type ServeServer } from '../../src/serve';
import { startUi, type UiServer } from '../../src/ui';
import { kubectl } from '../support/kube-clients';
import { json } from '../support/http-client';

const EXAMPLE = join(__dirname, '..', '..', 'recordings', 'examples', 'configmaps.db');

let browser: Browser;
beforeAll(async () => {
  if (!haveChromium) return;
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const openPage = (url: string): Promise<Page> => openBrowserPage(browser, url);

const dataset = (page: Page) => page.$eval('#timeline', (el) => ({ ...(el as unknown as { dataset: Record<string, string> }).dataset }));

/** Pixels of the canvas's resourceVersion band (its top `band` CSS pixels) in the colour `rgb`. */
function bandPixels(page: Page, rgb: [number, number, number], band = 64): Promise<number> {
  return page.$eval('.lanes-canvas', (el, [rgb, band]) => {
    const canvas = el as unknown as { width: number; getContext(k: string): any; clientWidth: number };
    const scale = canvas.width / canvas.clientWidth;
    const data: Uint8ClampedArray = canvas.getContext('2d').getImageData(0, 0, canvas.width, Math.floor((band as number) * scale)).data;
    const [r, g, b] = rgb as number[];
    let n = 0;
    for (let i = 0; i < data.length; i += 4) if (Math.abs(data[i]! - r!) < 8 && Math.abs(data[i + 1]! - g!) < 8 && Math.abs(data[i + 2]! - b!) < 8 && data[i + 3]! > 200) n++;
    return n;
  }, [rgb, band] as const);
}
const RV_COLOUR: [number, number, number] = [0x1f, 0x9e, 0x89];
const FLOOR_COLOUR: [number, number, number] = [0xd7, 0x26, 0x3d];

describeBrowser('the resourceVersion band on the example recording', () => {
  it('has a point for every answer that carried an RV (lists, gets, writes, watch events) and no floor line', async () => {
    const ui = await startUi({ db: EXAMPLE, listen: '127.0.0.1:0', summary: inspectRecording });
    const page = await openPage(ui.url);
    try {
      const rows = (await json(ui.url, '/api/exchanges?limit=500')).body.rows as Array<{ verb: string; rv: string | null }>;
      const answers = rows.filter((r) => r.verb !== 'watch' && /^\d+$/.test(r.rv ?? '')).length;
      const d = await dataset(page);
      expect(answers).toBeGreaterThan(3);
      expect(Number(d.rvAnswers)).toBe(answers + Number(d.events));
      expect([d.rvMin, d.rvMax]).toEqual(['106', '114']);
      expect(Number(d.rvColumns)).toBeGreaterThan(3);
      expect(await bandPixels(page, RV_COLOUR)).toBeGreaterThan(20);
      expect(d.floors).toBe('0');
      expect(await bandPixels(page, FLOOR_COLOUR)).toBe(0);
    } finally {
      await page.close();
      await ui.close();
    }
  });
});

describeBrowser('kubetape ui on the file a running serve --out writes', () => {
  let dir: string;
  let api: ServeServer | undefined;
  let ui: UiServer | undefined;
  let page: Page | undefined;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'kubetape-ui-serve-out-'));
  });
  afterAll(async () => {
    await page?.close();
    await ui?.close();
    await api?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('shows kubectl’s writes without a reload, and the compaction floor once serve compacts', async () => {
    const out = join(dir, 'served.db');
    const cache = join(dir, 'cache');
    api = await serve({ out, controllers: 'none', seed: 3 });
    const kc = api.kubeconfigPath;
    const ok = async (args: string[]) => {
      const r = await kubectl(kc, cache, args);
      if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')}: ${r.stderr}`);
    };
    await ok(['create', 'configmap', 'before-ui', '--from-literal=a=1']);
    await api.flush();
    const end = Date.now() + 10_000;
    while (exchangeCount(out) === 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    ui = await startUi({ db: out, listen: '127.0.0.1:0', summary: inspectRecording });
    page = await openPage(ui.url);
    const before = Number((await dataset(page)).exchanges);
    expect(before).toBeGreaterThan(0);
    expect((await dataset(page)).floors).toBe('0');

    await ok(['create', 'configmap', 'live-cm', '--from-literal=b=2']);
    await ok(['label', 'configmap', 'live-cm', 'seen=yes']);
    await page.waitForFunction((n) => Number((globalThis as any).document.querySelector('#timeline').dataset.exchanges) > n, before, { timeout: 20_000 });
    await page.click('.tab[data-tab="exchanges"]');
    // kubectl label: a GET of the object, then its PATCH.
    await page.waitForFunction(() => [...(globalThis as any).document.querySelectorAll('#exchanges tbody tr')].some((tr: any) =>
      tr.querySelector('td.path')?.getAttribute('title').startsWith('/api/v1/namespaces/default/configmaps/live-cm?') && tr.querySelectorAll('td')[2].textContent === 'PATCH'),
    undefined, { timeout: 20_000 });

    await page.click('.tab[data-tab="timeline"]');
    const floor = api.compact();
    await page.waitForFunction(() => Number((globalThis as any).document.querySelector('#timeline').dataset.floors) > 0, undefined, { timeout: 20_000 });
    const d = await dataset(page);
    expect(d.floor).toBe(floor);
    expect(Number(d.floorSteps)).toBeGreaterThan(0);
    expect(await bandPixels(page, FLOOR_COLOUR)).toBeGreaterThan(20);
    expect(await bandPixels(page, RV_COLOUR)).toBeGreaterThan(0);
  });
});
