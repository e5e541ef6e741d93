/**
 * What serve knows of one served version of a custom resource, read from its
 * CustomResourceDefinition: names, scope, the structural schema (pruning, defaults, the node
 * interface SSA and field validation read), the Ajv validator, subresources and printer columns.
 */
import { storageVersion } from '../../k8s/crd-object';
import { conversionWebhookOf, type ConversionWebhook } from '../webhooks/conversion-webhook';
import { celValidator, crdSchema, customResourceValidator, type CelValidator, type CustomResourceValidator, type SchemaNode } from '../../schema';

type Obj = Record<string, any>;

export interface ScaleSubresource {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
}

export interface PrinterColumn {
  name: string;
  type: string;
  format?: string;
  description?: string;
  priority?: number;
  jsonPath: string;
}

export interface CustomResourceType {
  /** The CRD's name (`widgets.example.com`). */
  crd: string;
  group: string;
  version: string;
  /** The version objects are stored in (conversion None: only apiVersion differs). */
  storageVersion: string;
  /** Every served version's name. */
  servedVersions: string[];
  /** The CRD's conversion webhook (`strategy: Webhook`); undefined for None. */
  conversion?: ConversionWebhook;
  plural: string;
  singular: string;
  kind: string;
  listKind: string;
  shortNames?: string[];
  categories?: string[];
  namespaced: boolean;
  /** The root node of this version's structural schema. */
  schema: SchemaNode;
  /** This version's `schema.openAPIV3Schema` as the CRD gives it (served in /openapi/v3). */
  openAPIV3Schema?: Obj;
  validate: CustomResourceValidator;
  /** This version's CEL rules (`x-kubernetes-validations`); undefined when it has none. */
  rules?: CelValidator;
  status: boolean;
  scale?: ScaleSubresource;
  printerColumns: PrinterColumn[];
  /** Called when the CRD is gone: open watches end. */
  onRemoved(listener: () => void): () => void;
}

/** One CustomResourceType per served version of `crd`; `removed` fires their onRemoved listeners. */
export function customResourceTypes(crd: Obj, removed: Set<() => void>): CustomResourceType[] {
  const spec = crd.spec ?? {};
  const names = spec.names ?? {};
  const group = String(spec.group ?? '');
  const kind = String(names.kind ?? '');
  const schema = crdSchema(crd);
  const stored = storageVersion(crd);
  const served = ((spec.versions ?? []) as Obj[]).filter((v) => v.served !== false).map((v) => String(v.name));
  const conversion = conversionWebhookOf(crd);
  const onRemoved = (listener: () => void) => {
    removed.add(listener);
    return () => removed.delete(listener);
  };
  return ((spec.versions ?? []) as Obj[])
    .filter((v) => v.served !== false)
    .map((v) => {
      const scale = v.subresources?.scale as Obj | undefined;
      return {
        crd: String(crd.metadata?.name ?? ''),
        group,
        version: String(v.name),
        storageVersion: stored,
        servedVersions: served,
        ...(conversion ? { conversion } : {}),
        plural: String(names.plural ?? ''),
        singular: String(names.singular ?? kind.toLowerCase()),
        kind,
        listKind: String(names.listKind ?? `${kind}List`),
        shortNames: Array.isArray(names.shortNames) ? names.shortNames.map(String) : undefined,
        categories: Array.isArray(names.categories) ? names.categories.map(String) : undefined,
        namespaced: spec.scope !== 'Cluster',
        schema: schema.typeOf(`${group}/${v.name}`, kind)!,
        openAPIV3Schema: v.schema?.openAPIV3Schema,
        validate: customResourceValidator(v.schema?.openAPIV3Schema),
        rules: celValidator(v.schema?.openAPIV3Schema),
        status: v.subresources?.status !== undefined && v.subresources?.status !== null,
        scale: scale ? { specReplicasPath: String(scale.specReplicasPath), statusReplicasPath: String(scale.statusReplicasPath), labelSelectorPath: scale.labelSelectorPath } : undefined,
        printerColumns: Array.isArray(v.additionalPrinterColumns) ? v.additionalPrinterColumns : [],
        onRemoved,
      };
    });
}
