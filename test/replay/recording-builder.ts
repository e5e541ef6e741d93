import { requestInfo } from '../../src/k8s/request-info';
import { openRecording, type Db } from '../../src/recording/open';

export interface ExchangeSpec {
  method?: string;
  url: string;
  requestHeaders?: [string, string][];
  requestBody?: Buffer | string;
  status?: number | null;
  responseHeaders?: [string, string][];
  body?: Buffer | string;
  outcome?: 'complete' | 'aborted' | 'reset' | 'error' | 'open';
  durationMs?: number;
  /** A list: the resourceVersion its response carried (written to `lists`). */
  listRv?: string;
  /** A streamed response: its frames. */
  frames?: { offsetMs: number; data: Buffer | string }[];
  upgrade?: boolean;
}

/**
 * Writes recordings row by row, as the recorder would, for replay tests that need exact control
 * of what was recorded (orders, outcomes, offsets) without a live upstream.
 */
export class RecordingBuilder {
  readonly db: Db;
  private startedAt = 1_700_000_000_000;

  constructor(readonly path: string) {
    this.db = openRecording(path, { create: true });
  }

  add(spec: ExchangeSpec): number {
    const method = spec.method ?? 'GET';
    const info = requestInfo(method, spec.url);
    const streamed = spec.frames !== undefined;
    const result = this.db.prepare(
      `INSERT INTO exchanges (started_at, method, url, verb, api_group, api_version, resource, subresource, namespace, name,
         request_headers, request_body, status, response_headers, response_body, streamed, upgrade, duration_ms, outcome)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      (this.startedAt += 10), method, spec.url, info.verb, info.apiGroup, info.apiVersion, info.resource, info.subresource, info.namespace, info.name,
      JSON.stringify(spec.requestHeaders ?? [['Accept', 'application/json']]),
      spec.requestBody === undefined ? null : Buffer.from(spec.requestBody),
      spec.status === undefined ? 200 : spec.status,
      JSON.stringify(spec.responseHeaders ?? [['Content-Type', 'application/json']]),
      streamed || spec.body === undefined ? null : Buffer.from(spec.body),
      streamed ? 1 : 0, spec.upgrade ? 1 : 0, spec.durationMs ?? 1, spec.outcome ?? 'complete',
    );
    const id = Number(result.lastInsertRowid);
    (spec.frames ?? []).forEach((frame, seq) => {
      this.db.prepare('INSERT INTO frames (exchange_id, seq, offset_ms, data) VALUES (?, ?, ?, ?)').run(id, seq, frame.offsetMs, Buffer.from(frame.data));
    });
    if (spec.listRv !== undefined) {
      this.db.prepare(
        `INSERT INTO lists (exchange_id, at_ms, api_group, api_version, resource, namespace, rv, items) VALUES (?, ?, ?, ?, ?, ?, ?, 0)`,
      ).run(id, this.startedAt, info.apiGroup, info.apiVersion, info.resource, info.namespace, spec.listRv);
    }
    return id;
  }

  /** Many exchanges in one transaction (benchmarks). */
  addMany(specs: Iterable<ExchangeSpec>): void {
    this.db.transaction(() => {
      for (const spec of specs) this.add(spec);
    })();
  }

  close(): void {
    this.db.close();
  }
}
