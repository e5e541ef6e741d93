import { closeSync, openSync, readSync, statSync } from 'node:fs';

const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');
const HEADER_BYTES = 100;

/**
 * What is wrong with a recording file before SQLite opens it, in words for the user, or null:
 * a directory, an empty file, a file shorter than its SQLite header says (a truncated copy). A
 * file that is not SQLite at all is left to SQLite to say. `walBytes`: the size of its `-wal`
 * (pages there may not be in the file yet, so a file with a WAL is not judged truncated).
 */
export function recordingFileProblem(path: string, walBytes: number): string | null {
  const stat = statSync(path);
  if (stat.isDirectory()) return 'is a directory, not a recording file';
  if (!stat.isFile()) return 'not a regular file';
  if (stat.size === 0) return 'empty file (0 bytes): not a recording';
  const header = Buffer.alloc(HEADER_BYTES);
  const fd = openSync(path, 'r');
  let read: number;
  try {
    read = readSync(fd, header, 0, HEADER_BYTES, 0);
  } finally {
    closeSync(fd);
  }
  const magic = Math.min(read, SQLITE_MAGIC.length);
  if (!header.subarray(0, magic).equals(SQLITE_MAGIC.subarray(0, magic))) return null;
  if (read < HEADER_BYTES) return `truncated: ${stat.size} bytes, shorter than an SQLite header`;
  if (walBytes > 0) return null;
  const rawPageSize = header.readUInt16BE(16);
  const pageSize = rawPageSize === 1 ? 65536 : rawPageSize;
  const pages = header.readUInt32BE(28);
  // The in-header size is valid only when the change counter matches "version-valid-for".
  if (pageSize < 512 || pages === 0 || header.readUInt32BE(24) !== header.readUInt32BE(92)) return null;
  const expected = pageSize * pages;
  return stat.size < expected ? `truncated: ${stat.size} of ${expected} bytes (the SQLite header says ${pages} pages of ${pageSize})` : null;
}

/** The size of a file, 0 when it does not exist. */
export function fileBytes(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}
