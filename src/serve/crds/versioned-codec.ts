/**
 * The codec of a custom resource version other than the storage version: objects are stored in
 * the storage version and, conversion being None, only their apiVersion differs. Custom
 * resources are written with sorted keys, so the apiVersion is always the first member.
 */
import type { SeenResource, StoredObject } from '../../reconstruct';
import { ResourceCodec } from '../resource-codec';

export class VersionedCodec extends ResourceCodec {
  private readonly storedPrefix: string;
  private readonly servedPrefix: string;

  constructor(info: SeenResource, storageApiVersion: string) {
    super(info);
    this.storedPrefix = `{"apiVersion":${JSON.stringify(storageApiVersion)}`;
    this.servedPrefix = `{"apiVersion":${JSON.stringify(this.type.apiVersion)}`;
  }

  override objectJson(value: StoredObject): string {
    const json = super.objectJson(value);
    return json.startsWith(this.storedPrefix) ? this.servedPrefix + json.slice(this.storedPrefix.length) : json;
  }
}
