/**
 * The protobuf field numbers of the built-in kinds the package ships (data/builtin-api/protobuf.json.gz,
 * made by scripts/build-builtin-protobuf.js), read once, on first use: a JSON-only session never loads them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { ProtobufSchema, type ProtobufSchemaData } from './protobuf-schema';

/** data/builtin-api beside this file's package: the same path from src/wire (tests) and dist/wire. */
const SHIPPED_DESCRIPTORS = join(__dirname, '..', '..', 'data', 'builtin-api', 'protobuf.json.gz');

let shipped: ProtobufSchema | undefined;

/** The shipped descriptors; throws when the file cannot be read. */
export function shippedProtobufSchema(): ProtobufSchema {
  return (shipped ??= new ProtobufSchema(JSON.parse(gunzipSync(readFileSync(SHIPPED_DESCRIPTORS)).toString('utf8')) as ProtobufSchemaData));
}
