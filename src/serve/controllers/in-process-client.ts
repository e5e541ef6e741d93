/**
 * How the in-process controllers talk to serve: as a client of the same write pipeline a
 * request from the network goes through (src/serve/writes), with the controller-manager's
 * User-Agent, minus the network and the fault hooks. Reads go straight to the store's head.
 */
import { Readable } from 'node:stream';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { requestInfo } from '../../k8s/request-info';
import { StatusError, resourceNotFound } from '../../k8s/status';
import type { StoredObject } from '../../reconstruct';
import { objectKey } from '../../store/revision';
import type { ResourceRequest } from '../resource-request';
import type { ServedResource } from '../served-resources';
import { handleWrite, type WriteDeps } from '../writes';
import { timestamp } from '../writes/write-deps';
import { objectOf } from '../writes/written-object';

type Obj = Record<string, any>;

/** What kube-controller-manager sends (the managedFields manager is the part before the `/`). */
export const CONTROLLER_MANAGER_AGENT = 'kube-controller-manager/v1.26.4 (linux/amd64) kubernetes/kubetape';

export interface ClientReply {
  code: number;
  /** The JSON answer (an object, a list or a Status). */
  body: Obj;
}

export class InProcessClient {
  constructor(private readonly deps: WriteDeps) {}

  /** Server time as metav1.Time writes it (condition transition times). */
  now(): string {
    return timestamp(this.deps.now());
  }

  /** The served resource, or undefined when serve does not serve it. */
  resource(group: string, version: string, resource: string): ServedResource | undefined {
    return this.deps.resources.find(group, version, resource);
  }

  /** The live object at the head, as a fresh JS object; undefined when absent. */
  get(resource: ServedResource, namespace: string, name: string): Obj | undefined {
    const found = resource.store.get(objectKey(resource.namespaced ? namespace : '', name), this.deps.store.head);
    return found ? this.objectAt(resource, found.value, found.rev) : undefined;
  }

  /** Every live object of the resource at the head (in one namespace when given). */
  list(resource: ServedResource, namespace = ''): Obj[] {
    const prefix = resource.namespaced && namespace ? `${namespace}/` : '';
    return resource.store.snapshot(this.deps.store.head, prefix).map((r) => this.objectAt(resource, r.value, r.rev));
  }

  /** One request through the write pipeline (POST, PUT, PATCH, DELETE); a Status error comes back as its reply. */
  async write(method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<ClientReply> {
    const info = requestInfo(method, path);
    const resource = this.deps.resources.find(info.apiGroup, info.apiVersion, info.resource);
    if (!resource) return reply(resourceNotFound());
    const payload = body === undefined ? Buffer.alloc(0) : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
    const req = Object.assign(Readable.from(payload.length > 0 ? [payload] : []), {
      method,
      url: path,
      headers: { 'content-type': contentType, 'content-length': String(payload.length), 'user-agent': CONTROLLER_MANAGER_AGENT, accept: 'application/json' },
    }) as unknown as IncomingMessage;
    const res = new CapturedResponse();
    const ctx = { req, res: res as unknown as ServerResponse, info, resource } as ResourceRequest;
    try {
      await handleWrite(ctx, this.deps);
    } catch (err) {
      if (err instanceof StatusError) return reply(err);
      throw err;
    }
    return { code: res.code, body: JSON.parse(res.text() || '{}') as Obj };
  }

  private objectAt(resource: ServedResource, value: StoredObject, rev: number): Obj {
    const obj = objectOf(value, resource.codec.type);
    obj.metadata ??= {};
    obj.metadata.resourceVersion ??= String(rev);
    return obj;
  }
}

function reply(err: StatusError): ClientReply {
  return { code: err.status.code, body: err.status as unknown as Obj };
}

/** The parts of a ServerResponse the write pipeline's answers use, keeping what was sent. */
class CapturedResponse {
  code = 0;
  headersSent = false;
  private readonly chunks: Buffer[] = [];

  writeHead(code: number): this {
    this.code = code;
    this.headersSent = true;
    return this;
  }

  end(payload?: Buffer | string): this {
    if (payload !== undefined) this.chunks.push(Buffer.from(payload));
    return this;
  }

  destroy(): this {
    return this;
  }

  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}
