/** What the write handlers ask of admission webhooks (src/serve/admission implements it). */
import type { ServerResponse } from 'node:http';
import type { AdmissionOperation } from '../../k8s/admission-match';

type Obj = Record<string, any>;

/** A write's admission attributes (admission.Attributes without the objects and the user). */
export interface AdmissionRequest {
  res: ServerResponse;
  operation: AdmissionOperation;
  group: string;
  version: string;
  resource: string;
  subresource: string;
  kind: string;
  /** The kind's group/version when it is not the resource's (`autoscaling/v1` for a Scale). */
  kindApiVersion?: string;
  /** '' for cluster-scoped resources; a Namespace's own name for a request on it. */
  namespace: string;
  name: string;
  dryRun: boolean;
  options: Obj | undefined;
  /** The request's bearer token, if any (a service account token serve issued names its user). */
  bearerToken?: string;
  /** A mutating webhook's patched object as the apiserver decodes it again (checked, pruned, defaulted). */
  settle(obj: Obj): Obj;
}

/** The admission chain's webhooks as the write handlers call them. */
export interface Admission {
  applies(group: string, resource: string): boolean;
  /** The object after the mutating webhooks (undefined `object` for a DELETE). */
  mutate(request: AdmissionRequest, object: Obj | undefined, oldObject: Obj | undefined): Promise<Obj | undefined>;
  /** Throws the first refusal of the validating webhooks. */
  validate(request: AdmissionRequest, object: Obj | undefined, oldObject: Obj | undefined): Promise<void>;
}
