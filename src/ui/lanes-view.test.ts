import type { ExchangeRow } from '../recording/reader/exchange-rows';
import { lanesView } from './lanes-view';

const row = (id: number, at: number, verb: string, rv: string | null, more: Partial<ExchangeRow> = {}): ExchangeRow => ({
  id, at, durationMs: 2, method: 'GET', url: '/api/v1/configmaps', verb, resource: 'configmaps', namespace: '', client: 'c', status: 200,
  outcome: 'complete', rule: null, watchEnded: null, rv, ...more,
});

describe('lanesView: the resourceVersion band', () => {
  const rows = [row(1, 0, 'list', '100'), row(2, 5, 'get', null), row(3, 10, 'watch', '130', { durationMs: 80 }), row(4, 50, 'create', null), row(5, 60, 'list', 'not-a-number')];
  const objectRvs = new Map([[2, '104'], [4, '140']]);

  it('has, per bucket, the lowest and highest RV of the answers: lists, gets and writes at their end, watch arrivals as bucketed', () => {
    const v = lanesView('client', rows, [[3, 2, 5, 120, 125], [3, 3, 2, 126, 130], [99, 4, 1, 1, 1]], 0, 100, 10, { objectRvs, compactions: [] });
    expect(v.rv.points).toEqual([[0, 100, 104, 2], [2, 120, 125, 5], [3, 126, 130, 2], [5, 140, 140, 1]]);
    expect([v.rv.min, v.rv.max]).toEqual([100, 140]);
    expect(v.rv.floors).toEqual([]);
  });

  it('has the floor in force at the start, then the compactions in the window (per bucket the highest), none after it', () => {
    const compactions: Array<[number, number]> = [[-50, 90], [-20, 95], [30, 110], [31, 112], [70, 125], [150, 200]];
    const v = lanesView('client', rows, [], 0, 100, 10, { objectRvs, compactions });
    expect(v.rv.floors).toEqual([[-20, 95], [31, 112], [70, 125]]);
    expect([v.rv.min, v.rv.max]).toEqual([95, 140]);
  });

  it('has no band without RVs or compactions', () => {
    const v = lanesView('client', [row(1, 0, 'get', null)], [], 0, 100, 10);
    expect(v.rv).toEqual({ points: [], floors: [], min: null, max: null });
  });
});
