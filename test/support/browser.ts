/**
 * Debian's chromium driven by playwright-core for the browser tests (test/ui, explore's HTML
 * report): where it is, whether it is there (the tests are skipped, saying so, when it is not),
 * the page bundle built, and a page opened at the size the tests measure against.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) process.stderr.write(`browser tests skipped: ${CHROMIUM} is absent (apt-get install chromium; .ci/run installs it)\n`);
/** `describe`, or `describe.skip` when chromium is absent. */
export const describeBrowser = haveChromium ? describe : describe.skip;

/** Builds the page bundle (scripts/build-ui.js) and launches a headless chromium. */
export function launchBrowser(): Promise<Browser> {
  execFileSync(process.execPath, [join(__dirname, '..', '..', 'scripts', 'build-ui.js')]);
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
}

/** A 1400×800 page at `url`, once the page says it is ready; `requests`, when given, collects the URL of every request it makes. */
export async function openPage(browser: Browser, url: string, requests?: string[]): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 800 } });
  if (requests) page.on('request', (r) => requests.push(r.url()));
  await page.goto(url);
  await page.waitForSelector('body[data-ready="1"]');
  return page;
}
