/**
 * The oracle: a reference run's end state and create/delete counts, with a mask of what varied
 * between reference runs (no perturbation, so a difference there is noise: a generated value,
 * a timestamp the controller writes, an object only sometimes there). `compare` gives a test
 * run's divergence from it, masked: objects missing, extra, changed (path by path), counts.
 */
import type { EndState, Flat } from './end-state';
import type { Counts } from './run-log';

export interface Oracle {
  end: EndState;
  counts: Counts;
  mask: {
    /** `key|path`: a field whose value varies. */
    paths: string[];
    /** Objects (count keys) present in some reference runs only, or in varying numbers. */
    keys: string[];
    /** Objects whose create/delete counts vary. */
    counts: string[];
  };
}

export interface Divergence {
  missing: string[];
  extra: string[];
  changed: Array<{ object: string; path: string; expected?: string; got?: string }>;
  counts: Array<{ object: string; expected: { creates: number; deletes: number }; got: { creates: number; deletes: number } }>;
}

export function learnOracle(refs: ReadonlyArray<{ end: EndState; counts: Counts }>): Oracle {
  const first = refs[0]!;
  const paths = new Set<string>();
  const keys = new Set<string>();
  const counts = new Set<string>();
  for (const other of refs.slice(1)) {
    const d = compareStates(first, other, { paths: [], keys: [], counts: [] });
    for (const k of [...d.missing, ...d.extra]) keys.add(k);
    for (const c of d.changed) paths.add(`${c.object}|${c.path}`);
    for (const c of d.counts) counts.add(c.object);
  }
  return { end: first.end, counts: first.counts, mask: { paths: [...paths].sort(), keys: [...keys].sort(), counts: [...counts].sort() } };
}

export function compare(oracle: Oracle, run: { end: EndState; counts: Counts }): Divergence {
  return compareStates(oracle, run, oracle.mask);
}

export function diverged(d: Divergence): boolean {
  return d.missing.length + d.extra.length + d.changed.length + d.counts.length > 0;
}

function compareStates(expected: { end: EndState; counts: Counts }, got: { end: EndState; counts: Counts }, mask: Oracle['mask']): Divergence {
  const maskedPaths = new Set(mask.paths);
  const maskedKeys = new Set(mask.keys);
  const out: Divergence = { missing: [], extra: [], changed: [], counts: [] };
  const all = new Set([...Object.keys(expected.end), ...Object.keys(got.end)]);
  for (const key of [...all].sort()) {
    if (maskedKeys.has(key)) continue;
    const e = expected.end[key] ?? [];
    const g = got.end[key] ?? [];
    if (g.length < e.length) out.missing.push(...Array(e.length - g.length).fill(key));
    if (g.length > e.length) out.extra.push(...Array(g.length - e.length).fill(key));
    for (let i = 0; i < Math.min(e.length, g.length); i++) out.changed.push(...changedPaths(key, e[i]!, g[i]!, maskedPaths));
  }
  const maskedCounts = new Set(mask.counts);
  const zero = { creates: 0, deletes: 0 };
  for (const key of [...new Set([...Object.keys(expected.counts), ...Object.keys(got.counts)])].sort()) {
    if (maskedCounts.has(key) || maskedKeys.has(key)) continue;
    const e = expected.counts[key] ?? zero;
    const g = got.counts[key] ?? zero;
    if (e.creates !== g.creates || e.deletes !== g.deletes) out.counts.push({ object: key, expected: e, got: g });
  }
  return out;
}

function changedPaths(key: string, e: Flat, g: Flat, masked: Set<string>): Divergence['changed'] {
  const out: Divergence['changed'] = [];
  for (const path of [...new Set([...Object.keys(e), ...Object.keys(g)])].sort()) {
    if (e[path] === g[path] || masked.has(`${key}|${path}`)) continue;
    out.push({ object: key, path, ...(e[path] !== undefined ? { expected: e[path] } : {}), ...(g[path] !== undefined ? { got: g[path] } : {}) });
  }
  return out;
}
