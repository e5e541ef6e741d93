import type { RecordingSummary } from './summary';

/** The summary as a person reads it: one section per question, biggest counts first. */
export function formatSummary(s: RecordingSummary): string {
  const lines: string[] = [];
  lines.push(`${s.file}: ${s.exchanges} exchanges${s.firstAt ? `, ${s.firstAt} → ${s.lastAt}` : ''}`);
  if (s.meta.upstream) lines.push(`  upstream: ${s.meta.upstream}`);
  lines.push('');
  lines.push(`by verb:      ${inline(s.byVerb)}`);
  lines.push(`by status:    ${inline(s.byStatus)}`);
  lines.push(`by outcome:   ${inline(s.byOutcome)}${s.upgrades ? `  (upgrades: ${s.upgrades})` : ''}`);
  lines.push('by resource:');
  lines.push(...table(Object.entries(s.byResource).map(([k, n]) => [k, String(n)])));
  lines.push('');
  lines.push(`watch streams: ${s.watches.length}, ${s.watchEvents} events`);
  lines.push(...table([
    ['#', 'resource', 'namespace', 'from rv', 'events', 'rv range', 'ended', 'encoding'],
    ...s.watches.map((w) => [
      String(w.exchangeId), w.resource, w.namespace || '(all)', w.startRv ?? '-', String(w.events),
      w.firstRv ? `${w.firstRv}..${w.lastRv}` : '-', w.ended ?? 'open', w.encoding ?? '',
    ]),
  ]));
  lines.push('');
  lines.push(`objects (distinct namespace/name) per resource, from ${s.observations} observations in ${s.lists} list pages and the watches above:`);
  lines.push(...table(Object.entries(s.objectsByResource).map(([k, n]) => [k, String(n)])));
  if (s.partialObjects.length > 0) {
    lines.push('objects known only by their metadata (Table rows, PartialObjectMetadata; serve lacks their other fields; record with --complete):');
    lines.push(...table([
      ['resource', 'as Table rows', 'as PartialObjectMetadata'],
      ...s.partialObjects.map((p) => [p.resource, String(p.tableRows), String(p.metadata)]),
    ]));
  }
  lines.push(`resourceVersion range: ${s.resourceVersionRange ? `${s.resourceVersionRange.min}..${s.resourceVersionRange.max}` : '-'}`);
  lines.push('');
  lines.push(`decode errors: ${s.decodeErrors.length}`);
  for (const e of s.decodeErrors.slice(0, 20)) lines.push(`  #${e.exchangeId} ${e.method} ${e.url}: ${e.error}`);
  if (s.decodeErrors.length > 20) lines.push(`  … ${s.decodeErrors.length - 20} more (--json lists all)`);
  return `${lines.join('\n')}\n`;
}

function inline(counts: Record<string, number>): string {
  const entries = Object.entries(counts);
  return entries.length ? entries.map(([k, n]) => `${k} ${n}`).join(', ') : '-';
}

function table(rows: string[][]): string[] {
  if (rows.length === 0) return ['  -'];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows.map((r) => `  ${r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('  ')}`.trimEnd());
}
