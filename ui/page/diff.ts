/** A line diff (longest common subsequence), enough for two revisions of one object. */
export type DiffLine = [op: ' ' | '+' | '-', text: string];

/** Lines beyond this many per side are compared as a whole replacement (the table would be too large). */
const MAX_LINES = 4000;

export function lineDiff(before: string, after: string): DiffLine[] {
  const a = before.split('\n');
  const b = after.split('\n');
  if (a.length > MAX_LINES || b.length > MAX_LINES) return [...a.map((t): DiffLine => ['-', t]), ...b.map((t): DiffLine => ['+', t])];
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) { endA--; endB--; }
  const n = endA - start;
  const m = endB - start;
  const lcs = new Uint32Array((n + 1) * (m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * (m + 1) + j] = a[start + i] === b[start + j] ? lcs[(i + 1) * (m + 1) + j + 1]! + 1 : Math.max(lcs[(i + 1) * (m + 1) + j]!, lcs[i * (m + 1) + j + 1]!);
    }
  }
  const out: DiffLine[] = a.slice(0, start).map((t): DiffLine => [' ', t]);
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[start + i] === b[start + j]) { out.push([' ', a[start + i]!]); i++; j++; }
    else if (j < m && (i >= n || lcs[i * (m + 1) + j + 1]! >= lcs[(i + 1) * (m + 1) + j]!)) { out.push(['+', b[start + j]!]); j++; }
    else { out.push(['-', a[start + i]!]); i++; }
  }
  out.push(...a.slice(endA).map((t): DiffLine => [' ', t]));
  return out;
}
