/**
 * A plan: one perturbation of a test run, as data (kept apart from the hooks that apply it, in
 * perturber.ts). Objects' changes are named by their index in the object's history (1: its
 * creation, 2: its next change …; a deletion and a re-creation count), which stays the same from
 * run to run where revisions do not.
 */
export const FINDING_CLASSES = ['stale-state', 'unobserved-state', 'intermediate-state'] as const;
export type FindingClass = (typeof FINDING_CLASSES)[number];

export interface ObjectKey {
  resource: string;
  namespace: string;
  name: string;
}

export type Perturbation =
  /** At change `trigger` of the object, the controller's watches of its resource end with 410 and its relist is answered from the view at change `view`; watches are held for `holdMs`. */
  | ({ class: 'stale-state'; view: number; trigger: number; holdMs: number } & ObjectKey)
  /** The controller's watches never deliver change `withhold` of the object (the next one arrives alone). */
  | ({ class: 'unobserved-state'; withhold: number } & ObjectKey)
  /** The controller is killed (SIGKILL) once its `write`-th successful write is committed, before the answer reaches it, then restarted. */
  | { class: 'intermediate-state'; write: number; what: string };

export interface Plan {
  id: number;
  perturbation: Perturbation;
}

export function objectName(o: ObjectKey): string {
  return `${o.resource} ${o.namespace ? `${o.namespace}/` : ''}${o.name}`;
}

/** The plan in one sentence. */
export function explainPerturbation(p: Perturbation): string {
  switch (p.class) {
    case 'stale-state':
      return `when ${objectName(p)} has its change ${p.trigger}, break the controller's ${p.resource} watches with 410 Gone, answer its relist from the view at the object's change ${p.view}, and hold its watches for ${p.holdMs} ms`;
    case 'unobserved-state':
      return `the controller's watches never deliver change ${p.withhold} of ${objectName(p)}; the change after it arrives alone`;
    case 'intermediate-state':
      return `kill the controller (SIGKILL) right after its write ${p.write} (${p.what}) is committed, before it sees the answer, and restart it`;
  }
}

export function planFileName(id: number): string {
  return `plan-${String(id).padStart(3, '0')}.yaml`;
}
