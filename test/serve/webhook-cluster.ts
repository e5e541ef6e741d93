/**
 * The wiring admission webhook tests share: JSON requests to a serve, webhooks of a test webhook
 * server, configurations installed (201 expected) and all removed between tests.
 */
import type { ServeServer } from '../../src/serve';
import { webhookConfiguration, webhookFor, type WebhookServer } from '../support/webhook-server';
import { sendJson } from './invalid-status';

type Obj = Record<string, any>;

const KINDS = ['validatingwebhookconfigurations', 'mutatingwebhookconfigurations'];

/** `api` and `hooks` are read when called (they are set in beforeAll). */
export function webhookCluster(api: () => ServeServer, hooks: () => WebhookServer) {
  const send = (method: string, path: string, body?: unknown, contentType?: string) => sendJson(api().url, method, path, body, contentType);
  return {
    send,
    webhook: (name: string, path: string, extra: Obj = {}): Obj => webhookFor(hooks(), name, path, extra),
    async install(kind: 'Validating' | 'Mutating', name: string, webhooks: Obj[]): Promise<void> {
      const { path, body } = webhookConfiguration(kind, name, webhooks);
      expect((await send('POST', path, body)).status).toBe(201);
    },
    /** Deletes every configuration and forgets the reviews received. */
    async reset(): Promise<void> {
      for (const kind of KINDS) await send('DELETE', `/apis/admissionregistration.k8s.io/v1/${kind}`);
      hooks().received.length = 0;
    },
  };
}
