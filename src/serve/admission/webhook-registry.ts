/**
 * The admission webhooks of the stored MutatingWebhookConfiguration and
 * ValidatingWebhookConfiguration objects, in the order the apiserver calls them (configurations
 * by name, webhooks in their order), rebuilt when one of those objects changes. With none stored
 * a write asks one boolean. Only configurations written to serve count: those of a recording
 * name services of the recorded cluster, which serve cannot reach, so they are served, not called.
 */
import type { StoredObject } from '../../reconstruct';
import type { Store } from '../../store/store';
import type { ServedResources } from '../served-resources';
import { objectOf, WrittenObject } from '../writes/written-object';

type Obj = Record<string, any>;

export const ADMISSION_GROUP = 'admissionregistration.k8s.io';
const MUTATING = 'mutatingwebhookconfigurations';
const VALIDATING = 'validatingwebhookconfigurations';

/** One webhook of one configuration. */
export interface AdmissionWebhook {
  /** The configuration's name (a webhook's uniqueness is per configuration). */
  configuration: string;
  /** The webhook as stored (defaults applied). */
  spec: Obj;
  /** Its index in the configuration's list. */
  index: number;
}

export class WebhookRegistry {
  private mutating: AdmissionWebhook[] = [];
  private validating: AdmissionWebhook[] = [];
  private stale = true;
  private any = false;

  constructor(private readonly store: Store<StoredObject>, private readonly resources: ServedResources) {
    store.onChange((id) => {
      if (id === `${ADMISSION_GROUP}/v1/${MUTATING}` || id === `${ADMISSION_GROUP}/v1/${VALIDATING}`) this.stale = true;
    });
  }

  /** Whether any webhook is configured (the write path's only cost when none is). */
  active(): boolean {
    this.refresh();
    return this.any;
  }

  mutatingWebhooks(): readonly AdmissionWebhook[] {
    this.refresh();
    return this.mutating;
  }

  validatingWebhooks(): readonly AdmissionWebhook[] {
    this.refresh();
    return this.validating;
  }

  private refresh(): void {
    if (!this.stale) return;
    this.stale = false;
    this.mutating = this.read(MUTATING);
    this.validating = this.read(VALIDATING);
    this.any = this.mutating.length > 0 || this.validating.length > 0;
  }

  private read(resource: string): AdmissionWebhook[] {
    const served = this.resources.find(ADMISSION_GROUP, 'v1', resource);
    if (!served || served.store.keyCount === 0) return [];
    const configurations = served.store
      .snapshot(this.store.head, '')
      .filter((r) => r.value instanceof WrittenObject)
      .map((r) => objectOf(r.value, served.codec.type))
      .sort((a, b) => compare(a.metadata?.name ?? '', b.metadata?.name ?? ''));
    const hooks: AdmissionWebhook[] = [];
    for (const config of configurations) {
      const list = Array.isArray(config.webhooks) ? config.webhooks : [];
      list.forEach((spec: Obj, index: number) => hooks.push({ configuration: config.metadata?.name ?? '', spec, index }));
    }
    return hooks;
  }
}

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
