import { openRecording } from './open';

/**
 * Creates or opens the recording (RecordingFormatError if it is not one), notes the session in
 * `meta`, and returns the id the next exchange gets: recording into an existing file appends.
 */
export function prepareRecording(path: string, meta: Record<string, string>): number {
  const db = openRecording(path, { create: true });
  try {
    const upsert = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
    const keepFirst = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING');
    db.transaction(() => {
      for (const [key, value] of Object.entries(meta)) {
        if (key === 'created_at') keepFirst.run(key, value);
        else upsert.run(key, value);
      }
    })();
    const row = db.prepare('SELECT max(id) AS id FROM exchanges').get() as { id: number | null };
    return (row.id ?? 0) + 1;
  } finally {
    db.close();
  }
}
