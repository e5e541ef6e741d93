'use strict';
/**
 * What the replay benchmark replays: N small recorded GETs (`GET …/configmaps/cm-NNNNNN`, ~300-byte
 * JSON ConfigMaps), as a kubetape recording and as talkback 4.2 tapes, plus a wrk script cycling
 * through their paths.
 */
const { mkdirSync, rmSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { openRecording } = require('../dist/recording/open');

const pathOf = (i) => `/api/v1/namespaces/bench/configmaps/cm-${String(i).padStart(6, '0')}`;

function bodyOf(i) {
  const name = `cm-${String(i).padStart(6, '0')}`;
  return JSON.stringify({
    kind: 'ConfigMap', apiVersion: 'v1',
    metadata: { name, namespace: 'bench', uid: `6f1c2e4a-0000-4000-8000-${String(i).padStart(12, '0')}`, resourceVersion: String(1000 + i), creationTimestamp: '2026-01-01T00:00:00Z' },
    data: { key: 'value', other: 'a little more text so the body is a few hundred bytes long' },
  });
}

const RESPONSE_HEADERS = (length) => [
  ['Audit-Id', '0f0c3c86-4f56-4a2b-9a55-8e3f1b2a7c10'], ['Cache-Control', 'no-cache, private'], ['Content-Type', 'application/json'],
  ['X-Kubernetes-Pf-Flowschema-Uid', 'b1f3'], ['X-Kubernetes-Pf-Prioritylevel-Uid', 'c2e4'], ['Date', 'Thu, 01 Jan 2026 00:00:00 GMT'], ['Content-Length', String(length)],
];

/** A kubetape recording of exchanges 0..n-1, written the way the recorder writes them. */
function writeRecording(path, n) {
  rmSync(path, { force: true });
  rmSync(`${path}-wal`, { force: true });
  rmSync(`${path}-shm`, { force: true });
  const db = openRecording(path, { create: true });
  const insert = db.prepare(
    `INSERT INTO exchanges (started_at, method, url, verb, api_version, resource, namespace, name, request_headers, status, response_headers, response_body, duration_ms, outcome)
     VALUES (?, 'GET', ?, 'get', 'v1', 'configmaps', 'bench', ?, ?, 200, ?, ?, 0.5, 'complete')`,
  );
  const requestHeaders = JSON.stringify([['Host', '127.0.0.1'], ['User-Agent', 'kubectl/v1.32.4'], ['Accept', 'application/json']]);
  db.transaction(() => {
    for (let i = 0; i < n; i++) {
      const body = Buffer.from(bodyOf(i));
      insert.run(1_767_225_600_000 + i, pathOf(i), `cm-${String(i).padStart(6, '0')}`, requestHeaders, JSON.stringify(RESPONSE_HEADERS(body.length)), body);
    }
  })();
  db.close();
}

/** talkback 4.2 tapes (JSON5; JSON is valid JSON5) for exchanges 0..n-1. */
function writeTapes(dir, n) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < n; i++) {
    const body = bodyOf(i);
    const headers = {};
    for (const [name, value] of RESPONSE_HEADERS(Buffer.byteLength(body))) headers[name.toLowerCase()] = [value];
    const tape = {
      meta: { createdAt: '2026-01-01T00:00:00.000Z', host: 'http://127.0.0.1:9', reqHumanReadable: true, resHumanReadable: true },
      req: { url: pathOf(i), method: 'GET', headers: { accept: 'application/json' }, body: '' },
      res: { status: 200, headers, body },
    };
    writeFileSync(join(dir, `tape-${i}.json5`), JSON.stringify(tape, null, 2));
  }
}

/** A wrk script sending GETs for paths of exchanges `from`..`to`-1 in turn, with `Accept: application/json`. */
function writeWrkScript(path, from, to) {
  const lines = ['local paths = {'];
  for (let i = from; i < to; i++) lines.push(`"${pathOf(i)}",`);
  lines.push(
    '}',
    'local reqs = {}',
    'local i = 0',
    '-- Formatted in init, once wrk has set the Host header.',
    'init = function(args)',
    '  for k, p in ipairs(paths) do reqs[k] = wrk.format("GET", p, { ["Accept"] = "application/json" }) end',
    'end',
    'request = function()',
    '  i = i + 1',
    '  if i > #reqs then i = 1 end',
    '  return reqs[i]',
    'end',
    '',
  );
  writeFileSync(path, lines.join('\n'));
}

module.exports = { pathOf, bodyOf, writeRecording, writeTapes, writeWrkScript };
