/** metav1.Status as it is on the wire (JSON field names); src/k8s/status.ts builds them, wire decodes and encodes them. */

export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: { continue?: string; resourceVersion?: string };
  status: 'Failure' | 'Success';
  message?: string;
  reason?: string;
  details?: StatusDetails;
  code: number;
}
