/**
 * The registry strategies' Validate and ValidateUpdate for the built-in kinds a controller
 * writes most, after defaulting and the metadata rules (object-meta-validation) — what makes a
 * real apiserver answer 422 to a Pod without containers or a Deployment whose selector does not
 * match its template. Other kinds are checked only as far as metadata and the schema go. Pure.
 */
import { validateCustomResourceDefinition, validateCustomResourceDefinitionUpdate } from './crd-validation';
import { validateCronJob, validateCronJobUpdate } from './cronjob-validation';
import { validateDaemonSet, validateDaemonSetUpdate } from './daemonset-validation';
import { validateEvent, validateEventUpdate } from './event-validation';
import type { FieldError } from './field-errors';
import { validateHorizontalPodAutoscaler, validateHorizontalPodAutoscalerUpdate } from './hpa-validation';
import { validateIngressClass, validateIngressClassUpdate } from './ingress-class-validation';
import { validateIngress, validateIngressUpdate } from './ingress-validation';
import { validateJob, validateJobUpdate } from './job-validation';
import { validateLease } from './lease-validation';
import { validateNetworkPolicy, validateNetworkPolicyUpdate } from './network-policy-validation';
import { validatePodDisruptionBudget } from './pdb-validation';
import { validatePodUpdate } from './pod-update-validation';
import { validatePod, validatePodTemplateSpec } from './pod-validation';
import { validatePersistentVolumeClaim, validatePersistentVolumeClaimUpdate } from './pvc-validation';
import {
  validateClusterRole,
  validateClusterRoleBinding,
  validateClusterRoleBindingUpdate,
  validateRole,
  validateRoleBinding,
  validateRoleBindingUpdate,
} from './rbac-validation';
import { validateSecretType } from './secret-type-validation';
import { validateService, validateServiceUpdate } from './service-validation';
import { validateStatefulSet, validateStatefulSetUpdate } from './statefulset-validation';
import {
  validateMutatingWebhookConfiguration,
  validateMutatingWebhookConfigurationUpdate,
  validateValidatingWebhookConfiguration,
  validateValidatingWebhookConfigurationUpdate,
} from './webhook-config-validation';
import {
  validateDeployment,
  validateDeploymentUpdate,
  validateReplicaSet,
  validateReplicaSetUpdate,
  validateReplicationController,
  validateReplicationControllerUpdate,
} from './workload-validation';
import { isPlainObject } from '../wire/json-object';

type Obj = Record<string, any>;

/** The kind's spec rules on create (and on update, before the update-only rules). */
export function validateBuiltinSpec(kind: string, obj: Obj): FieldError[] {
  switch (kind) {
    case 'Pod':
      return validatePod(obj);
    case 'PodTemplate':
      return validatePodTemplateSpec(isPlainObject(obj.template) ? obj.template : {}, 'template');
    case 'Deployment':
      return validateDeployment(obj);
    case 'ReplicaSet':
      return validateReplicaSet(obj);
    case 'StatefulSet':
      return validateStatefulSet(obj);
    case 'DaemonSet':
      return validateDaemonSet(obj);
    case 'ReplicationController':
      return validateReplicationController(obj);
    case 'Job':
      return validateJob(obj);
    case 'CronJob':
      return validateCronJob(obj);
    case 'Service':
      return validateService(obj);
    case 'Secret':
      return validateSecretType(obj);
    case 'PersistentVolumeClaim':
      return validatePersistentVolumeClaim(obj);
    case 'Ingress':
      return validateIngress(obj);
    case 'IngressClass':
      return validateIngressClass(obj);
    case 'NetworkPolicy':
      return validateNetworkPolicy(obj);
    case 'Role':
      return validateRole(obj);
    case 'ClusterRole':
      return validateClusterRole(obj);
    case 'RoleBinding':
      return validateRoleBinding(obj);
    case 'ClusterRoleBinding':
      return validateClusterRoleBinding(obj);
    case 'Lease':
      return validateLease(obj);
    case 'Event':
      return validateEvent(obj);
    case 'PodDisruptionBudget':
      return validatePodDisruptionBudget(obj);
    case 'HorizontalPodAutoscaler':
      return validateHorizontalPodAutoscaler(obj);
    case 'ValidatingWebhookConfiguration':
      return validateValidatingWebhookConfiguration(obj);
    case 'MutatingWebhookConfiguration':
      return validateMutatingWebhookConfiguration(obj);
    case 'CustomResourceDefinition':
      return validateCustomResourceDefinition(obj);
    default:
      return [];
  }
}

/** The kind's rules on update of the main resource: the create rules on `next`, then what may not change from `old`. */
export function validateBuiltinSpecUpdate(kind: string, next: Obj, old: Obj): FieldError[] {
  switch (kind) {
    case 'Pod':
      return validatePodUpdate(next, old);
    case 'Deployment':
      return validateDeploymentUpdate(next, old);
    case 'ReplicaSet':
      return validateReplicaSetUpdate(next, old);
    case 'StatefulSet':
      return validateStatefulSetUpdate(next, old);
    case 'DaemonSet':
      return validateDaemonSetUpdate(next, old);
    case 'ReplicationController':
      return validateReplicationControllerUpdate(next);
    case 'Job':
      return validateJobUpdate(next, old);
    case 'CronJob':
      return validateCronJobUpdate(next, old);
    case 'Service':
      return validateServiceUpdate(next, old);
    case 'PersistentVolumeClaim':
      return validatePersistentVolumeClaimUpdate(next, old);
    case 'Ingress':
      return validateIngressUpdate(next, old);
    case 'IngressClass':
      return validateIngressClassUpdate(next, old);
    case 'NetworkPolicy':
      return validateNetworkPolicyUpdate(next, old);
    case 'RoleBinding':
      return validateRoleBindingUpdate(next, old);
    case 'ClusterRoleBinding':
      return validateClusterRoleBindingUpdate(next, old);
    case 'Event':
      return validateEventUpdate(next, old);
    case 'HorizontalPodAutoscaler':
      return validateHorizontalPodAutoscalerUpdate(next, old);
    case 'ValidatingWebhookConfiguration':
      return validateValidatingWebhookConfigurationUpdate(next, old);
    case 'MutatingWebhookConfiguration':
      return validateMutatingWebhookConfigurationUpdate(next, old);
    case 'CustomResourceDefinition':
      return validateCustomResourceDefinitionUpdate(next, old);
    default:
      return validateBuiltinSpec(kind, next);
  }
}
