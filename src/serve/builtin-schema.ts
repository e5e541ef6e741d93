/**
 * The schema of the built-in types, read from data/builtin-api/schema.json.gz (made by
 * scripts/build-schema.js) on first use and kept for the process: a serve that never writes
 * never reads it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { Schema, type SchemaData } from '../schema';
import { BUILTIN_API_DIR } from './builtin-api';

let shipped: Schema | undefined;

/** The shipped built-in schema (read once per process). */
export function builtinSchema(): Schema {
  return (shipped ??= loadSchema(join(BUILTIN_API_DIR, 'schema.json.gz')));
}

/** A schema file in the compact form (gzip-encoded JSON). */
export function loadSchema(file: string): Schema {
  return new Schema(JSON.parse(gunzipSync(readFileSync(file)).toString('utf8')) as SchemaData);
}
