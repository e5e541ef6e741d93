import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { requestInfo, type RequestInfo } from '../k8s/request-info';

/** What rules look at: the request line, its headers and what the URL means to the apiserver. */
export interface FaultRequest {
  method: string;
  /** Path and query as the client sent them. */
  url: string;
  info: RequestInfo;
  headers: IncomingHttpHeaders;
}

/** Reads a FaultRequest off an incoming request; pass `info` when the mode has already parsed the URL. */
export function faultRequest(req: Pick<IncomingMessage, 'method' | 'url' | 'headers'>, info?: RequestInfo): FaultRequest {
  const method = (req.method ?? 'GET').toUpperCase();
  const url = req.url ?? '/';
  return { method, url, info: info ?? requestInfo(method, url), headers: req.headers };
}

/** The first value of a header, as a string. */
export function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}
