#!/usr/bin/env node
/**
 * kubetape ui benchmarks (issue 18 targets), on a recording of 200,000 watch events plus 10,000
 * exchanges: first paint of the timeline after the page is requested (Debian's headless chromium
 * through playwright-core), the frame times of a scripted zoom and pan of the timeline, the bytes
 * of each API view, and the size of the HTML report.
 *
 *   npm run build && node bench/ui.js [--zoom]
 *
 * --zoom: only the zoom/pan trace (TRACE_DETAIL=1 prints each long animation frame's scripts).
 * Prints a table; exits 1 when a target is missed. Needs /usr/bin/chromium.
 */
'use strict';
const { mkdtempSync, rmSync } = require('node:fs');
const { loadavg, tmpdir } = require('node:os');
const { join } = require('node:path');

const dist = join(__dirname, '..', 'dist');
const { openRecording } = require(join(dist, 'recording', 'open.js'));
const { PackedWatchEvents } = require(join(dist, 'recording', 'writer', 'packed-watch-events.js'));
const { startUi, writeReport } = require(join(dist, 'ui', 'index.js'));
const { inspectRecording } = require(join(dist, 'inspect', 'index.js'));

const ZOOM_ONLY = process.argv.includes('--zoom');
const TARGETS = { firstPaintMs: 1500, frameMs: 50, viewBytes: 1024 * 1024, reportBytes: 10 * 1024 * 1024 };
const WATCHES = 100;
const EVENTS = 200_000;
const EXCHANGES = 10_000;
const OBJECTS = 2_000;
const SPAN_MS = 600_000;
const CLIENTS = ['controller-manager/v1.26', 'kubectl/v1.32.4', 'my-operator/0.3', 'scheduler/v1.26', 'informer-test/1.0', 'client-go/v0.26', 'python/kubernetes', 'kubelet/v1.26'];

function configMap(name, rv) {
  return JSON.stringify({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name, namespace: 'bench', uid: `uid-${name}`, resourceVersion: String(rv) }, data: { k: `v${rv}` } });
}

/** 10,000 exchanges over ten minutes from eight clients (one in fifty a 410 or a 429), 100 of them watches sharing 200,000 events. */
function writeRecording(path) {
  const db = openRecording(path, { create: true });
  const exchange = db.prepare(`INSERT INTO exchanges (started_at, method, url, verb, api_version, resource, namespace, request_headers, status, streamed, outcome, duration_ms, response_headers, response_body)
                               VALUES (?, 'GET', ?, ?, 'v1', 'configmaps', 'bench', ?, ?, ?, 'complete', ?, '[["Content-Type","application/json"]]', ?)`);
  const frame = db.prepare('INSERT INTO frames (exchange_id, seq, offset_ms, data) VALUES (?, ?, ?, ?)');
  const watchObservations = db.prepare(`INSERT INTO watch_observations (first_id, count, exchange_id, seq, at_ms, api_group, api_version, resource, encoding, events)
                                        VALUES (?, ?, ?, ?, ?, '', 'v1', 'configmaps', 'json', ?)`);
  const watchRow = db.prepare(`INSERT INTO watches (exchange_id, at_ms, api_group, api_version, resource, namespace, start_rv, encoding, events, ended) VALUES (?, ?, '', 'v1', 'configmaps', 'bench', '1000', 'json', ?, 'complete')`);
  const t0 = Date.parse('2026-11-21T00:00:00Z');
  const headers = (i) => JSON.stringify([['User-Agent', CLIENTS[i % CLIENTS.length]]]);
  db.transaction(() => {
    const watchIds = [];
    for (let i = 0; i < EXCHANGES; i++) {
      const at = t0 + (i / EXCHANGES) * SPAN_MS;
      if (i % (EXCHANGES / WATCHES) === 0) {
        watchIds.push(Number(exchange.run(at, '/api/v1/namespaces/bench/configmaps?watch=true', 'watch', headers(i), 200, 1, SPAN_MS - (at - t0), null).lastInsertRowid));
        continue;
      }
      const status = i % 50 === 1 ? 410 : i % 50 === 2 ? 429 : 200;
      exchange.run(at, '/api/v1/namespaces/bench/configmaps?limit=500', 'list', headers(i), status, 0, 3, Buffer.from('{"kind":"ConfigMapList","apiVersion":"v1","metadata":{"resourceVersion":"1000"},"items":[]}'));
    }
    let nextId = 1;
    let rv = 1000;
    const perWatch = EVENTS / WATCHES;
    watchIds.forEach((watchId, w) => {
      const start = t0 + (w / WATCHES) * SPAN_MS;
      let seq = 0;
      for (let e = 0; e < perWatch; e += 20) {
        const packed = new PackedWatchEvents();
        const lines = [];
        let offset = 0;
        const offsetMs = ((e / perWatch) * (SPAN_MS - (start - t0)));
        for (let k = 0; k < 20; k++) {
          rv++;
          const name = `cm-${(rv * 7) % OBJECTS}`;
          const object = configMap(name, rv);
          const prefix = '{"type":"MODIFIED","object":';
          packed.add('MODIFIED', 'object', 'ConfigMap', 'bench', name, null, String(rv), offset + prefix.length, Buffer.byteLength(object));
          const line = `${prefix}${object}}\n`;
          lines.push(line);
          offset += Buffer.byteLength(line);
        }
        frame.run(watchId, seq, offsetMs, Buffer.from(lines.join('')));
        watchObservations.run(nextId, 20, watchId, seq, start + offsetMs, packed.take());
        nextId += 20;
        seq++;
      }
      watchRow.run(watchId, start, perWatch);
    });
  })();
  db.close();
}

/**
 * A scripted zoom and pan of the timeline, as a person does it: 25 wheel steps in around the
 * middle, a drag across half the chart and back, 25 wheel steps out, each input one animation
 * frame after the last, with pauses in which the page fetches the zoomed view and draws it.
 * Every frame is timed by requestAnimationFrame (the interval between two frames' starts), and
 * chromium's long-animation-frame entries (frames with over 50 ms of work) are collected.
 */
async function zoomTrace(browser, url) {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.goto(url);
  await page.waitForSelector('#timeline[data-lanes]');
  await page.evaluate(() => {
    const t = (window.__trace = { frames: [], loaf: [], on: true });
    const tick = (now) => {
      t.frames.push(now);
      if (t.on) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    new PerformanceObserver((list) => { for (const e of list.getEntries()) t.loaf.push({ duration: e.duration, render: e.renderStart ? e.startTime + e.duration - e.renderStart : 0, scripts: e.scripts.map((s) => `${s.invoker} ${s.duration.toFixed(0)} ms`) }); }).observe({ type: 'long-animation-frame' });
  });
  const box = await page.$eval('.chart', (el) => { const r = el.getBoundingClientRect(); return { x: r.left, y: r.top, w: r.width, h: r.height }; });
  const cx = box.x + box.w / 2;
  const cy = box.y + Math.min(box.h / 2, 100);
  const frame = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r())));
  const settle = () => page.waitForTimeout(400);
  let fetches = 0;
  page.on('response', (r) => { if (r.url().includes('/api/lanes')) fetches++; });
  await browser.startTracing(page, { categories: ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline'] });
  await page.mouse.move(cx, cy);
  for (let i = 0; i < 25; i++) { await page.mouse.wheel(0, -120); await frame(); if (i % 8 === 7) await settle(); }
  await settle();
  await page.mouse.down();
  for (let i = 1; i <= 30; i++) { await page.mouse.move(cx + (i / 30) * (box.w / 2), cy); await frame(); }
  for (let i = 29; i >= 0; i--) { await page.mouse.move(cx + (i / 30) * (box.w / 2), cy); await frame(); }
  await page.mouse.up();
  await settle();
  for (let i = 0; i < 25; i++) { await page.mouse.wheel(0, 120); await frame(); if (i % 8 === 7) await settle(); }
  await settle();
  const { frames, loaf } = await page.evaluate(() => { window.__trace.on = false; return window.__trace; });
  const tasks = mainThreadTasks(JSON.parse((await browser.stopTracing()).toString('utf8')));
  await page.close();
  const intervals = frames.slice(1).map((t, i) => t - frames[i]).sort((a, b) => a - b);
  const at = (q) => intervals[Math.min(intervals.length - 1, Math.floor(q * intervals.length))];
  if (process.env.TRACE_DETAIL) console.log(JSON.stringify(loaf, null, 1));
  return { tasks, frames: intervals.length, fetches, max: intervals[intervals.length - 1], p95: at(0.95), p50: at(0.5), loaf };
}

/** The renderer main thread's tasks in a Chrome trace: `[wall ms, thread CPU ms]` each, longest first. */
function mainThreadTasks(trace) {
  const events = trace.traceEvents ?? trace;
  const main = events.find((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  if (!main) return [];
  if (process.env.TRACE_DETAIL) {
    const on = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X');
    const top = on.filter((e) => e.name === 'ThreadControllerImpl::RunTask').sort((a, b) => (b.tdur ?? 0) - (a.tdur ?? 0)).slice(0, 3);
    for (const t of top) {
      const inside = on.filter((e) => e !== t && e.ts >= t.ts && e.ts + e.dur <= t.ts + t.dur);
      const by = {};
      for (const e of inside) by[e.name] = (by[e.name] ?? 0) + (e.tdur ?? e.dur) / 1000;
      console.log((t.tdur / 1000).toFixed(1), Object.entries(by).sort((a, b) => b[1] - a[1]).slice(0, 8).map(([k, v]) => `${k} ${v.toFixed(1)}`).join(' | '));
    }
  }
  return events
    .filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.name === 'ThreadControllerImpl::RunTask')
    .map((e) => [e.dur / 1000, (e.tdur ?? e.dur) / 1000])
    .sort((a, b) => b[1] - a[1]);
}

async function main() {
  const { chromium } = require('playwright-core');
  const dir = mkdtempSync(join(tmpdir(), 'kubetape-bench-ui-'));
  const db = join(dir, 'ui.db');
  const results = [];
  let ui;
  let browser;
  try {
    let t = Date.now();
    writeRecording(db);
    console.log(`recording: ${EVENTS} watch events, ${EXCHANGES} exchanges, written in ${Date.now() - t} ms`);
    ui = await startUi({ db, listen: '127.0.0.1:0', summary: inspectRecording });
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox'] });
    for (let round = 0; round < (ZOOM_ONLY ? 0 : 3); round++) {
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      t = Date.now();
      await page.goto(ui.url);
      await page.waitForSelector('#timeline[data-lanes]');
      const ms = Date.now() - t;
      const events = await page.$eval('#timeline', (el) => el.getAttribute('data-events'));
      results.push([`first paint of the timeline (round ${round + 1}, ${events} events marked)`, `${ms} ms`, ms <= TARGETS.firstPaintMs]);
      await page.close();
    }
    const trace = await zoomTrace(browser, ui.url);
    const [longest] = trace.tasks;
    const cpuSorted = trace.tasks.map((t) => t[1]).sort((a, b) => a - b);
    results.push([`zoom/pan trace: longest main-thread task, CPU (${trace.tasks.length} tasks, ${trace.fetches} refetches drawn)`, `${longest[1].toFixed(1)} ms (wall ${longest[0].toFixed(1)} ms)`, longest[1] <= TARGETS.frameMs]);
    results.push(['zoom/pan trace: main-thread tasks over 16.7 ms CPU', `${cpuSorted.filter((c) => c > 16.7).length}`, true]);
    results.push([`zoom/pan trace: frame interval max, p95, p50 (${trace.frames} frames; wall, load ${loadavg()[0].toFixed(1)})`, `${trace.max.toFixed(1)}, ${trace.p95.toFixed(1)}, ${trace.p50.toFixed(1)} ms`, trace.p95 <= TARGETS.frameMs]);
    results.push(['zoom/pan trace: long animation frames (over 50 ms, wall)', trace.loaf.length ? trace.loaf.map((d) => d.duration.toFixed(0)).join(', ') + ' ms' : 'none', trace.loaf.every((d) => d.duration <= TARGETS.frameMs)]);
    if (ZOOM_ONLY) return report(results);
    const mid = Date.parse('2026-11-21T00:05:00Z');
    const views = ['/api/summary', '/api/facets', '/api/lanes?by=client&width=1400', '/api/lanes?by=resource&width=1400', '/api/exchanges?limit=500',
      '/api/exchanges/1', '/api/objects?resource=configmaps', '/api/objects/configmaps/bench/cm-7', `/api/state?at=${mid}`];
    for (const v of views) {
      t = Date.now();
      const res = await fetch(ui.url + v);
      const bytes = (await res.arrayBuffer()).byteLength;
      results.push([`GET ${v}`, `${(bytes / 1024).toFixed(0)} KiB in ${Date.now() - t} ms`, res.ok && bytes <= TARGETS.viewBytes]);
    }
    t = Date.now();
    const bytes = writeReport(db, join(dir, 'report.html'), inspectRecording);
    results.push(['inspect --html', `${(bytes / 1024 / 1024).toFixed(2)} MiB in ${Date.now() - t} ms`, bytes <= TARGETS.reportBytes]);
  } finally {
    await browser?.close();
    await ui?.close();
    rmSync(dir, { recursive: true, force: true });
  }
  report(results);
}

function report(results) {
  for (const [what, value, ok] of results) console.log(`${ok ? 'ok  ' : 'MISS'}  ${what.padEnd(70)} ${value}`);
  if (results.some((r) => !r[2])) process.exitCode = 1;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
