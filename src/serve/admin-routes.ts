import type { AdminApi } from '../http/admin';
import { badRequest } from '../k8s/status';
import type { AdvanceRequest, AdvanceResult, ServeStatus } from './options';

export interface AdminTarget {
  status(): ServeStatus;
  advance(request: AdvanceRequest): AdvanceResult;
  compact(rev?: number): number;
}

/** `GET /_kubetape/status`, `POST /_kubetape/advance`, `POST /_kubetape/compact`. */
export function mountServeAdmin(admin: AdminApi, target: AdminTarget): void {
  admin.add('GET', 'status', () => target.status());
  admin.add('POST', 'advance', (body: AdvanceRequest) => target.advance(body ?? {}));
  admin.add('POST', 'compact', (body: { resourceVersion?: string | number }) => {
    const raw = body?.resourceVersion;
    let rev: number | undefined;
    if (raw !== undefined) {
      rev = Number(raw);
      if (!Number.isSafeInteger(rev) || rev < 0) throw badRequest(`resourceVersion: not a revision: ${JSON.stringify(raw)}`);
    }
    const compacted = target.compact(rev);
    return { compactedResourceVersion: String(compacted), status: target.status() };
  });
}
