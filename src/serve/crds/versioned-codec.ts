/**
 * The codec of a custom resource version other than the storage version: objects are stored in
 * the storage version; with conversion None only their apiVersion differs (custom resources are
 * written with sorted keys, so the apiVersion is always the first member); a state a conversion
 * webhook converted is shown as the webhook gave it for this version; one it failed to convert
 * to this version fails the read with the conversion's 500, and is an ERROR event in a watch.
 */
import type { SeenResource, StoredObject } from '../../reconstruct';
import { ResourceCodec } from '../resource-codec';
import { goJson } from '../../wire/json-spans';
import { conversionFailure, convertedObject } from '../writes/custom-conversion';
import { withSortedKeys } from '../../wire/json-object';

type Obj = Record<string, any>;

export class VersionedCodec extends ResourceCodec {
  private readonly storedPrefix: string;
  private readonly servedPrefix: string;
  private readonly convertedTexts = new WeakMap<StoredObject, string>();

  /** `converts`: the CRD's strategy is Webhook (with None, forms a webhook made earlier are not used). */
  constructor(info: SeenResource, storageApiVersion: string, private readonly converts = false) {
    super(info);
    this.storedPrefix = `{"apiVersion":${JSON.stringify(storageApiVersion)}`;
    this.servedPrefix = `{"apiVersion":${JSON.stringify(this.type.apiVersion)}`;
  }

  override objectJson(value: StoredObject): string {
    // A stored state never changes: its converted text is made once, not per read or watch event.
    const cached = this.convertedTexts.get(value);
    if (cached !== undefined) return cached;
    const converted = this.converts ? convertedObject(value, this.type.apiVersion) : undefined;
    if (converted) {
      const text = goJson(withSortedKeys(converted));
      this.convertedTexts.set(value, text);
      return text;
    }
    const json = super.objectJson(value);
    return json.startsWith(this.storedPrefix) ? this.servedPrefix + json.slice(this.storedPrefix.length) : json;
  }

  override watchEventJson(type: string, value: StoredObject): Buffer {
    const failed = this.converts ? conversionFailure(value, this.type.apiVersion) : undefined;
    if (failed) return Buffer.from(`{"type":"ERROR","object":${goJson(failed.status)}}\n`, 'utf8');
    return super.watchEventJson(type, value);
  }

  override jsonObject(value: StoredObject): Obj {
    return (this.converts ? convertedObject(value, this.type.apiVersion) : undefined) ?? super.jsonObject(value);
  }
}

