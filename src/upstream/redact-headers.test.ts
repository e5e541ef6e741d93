import { headersJson, isSecretHeader, redactUrl, REDACTED } from './redact-headers';

test('headers as JSON: order and spelling kept, credentials redacted in any case, the same on every call', () => {
  const raw = ['Host', 'h', 'AUTHORIZATION', 'Bearer a', 'authorization', 'Bearer b', 'X-Api-Key', 'k', 'X-Auth-Token', 't',
    'Cookie', 'c', 'Accept', 'a"b'];
  const expected = JSON.stringify([
    ['Host', 'h'], ['AUTHORIZATION', REDACTED], ['authorization', REDACTED], ['X-Api-Key', REDACTED], ['X-Auth-Token', REDACTED],
    ['Cookie', REDACTED], ['Accept', 'a"b'],
  ]);
  for (let i = 0; i < 3; i++) expect(headersJson(raw)).toBe(expected); // the second and third calls answer from the remembered names
  expect(headersJson([])).toBe('[]');
});

test('a header name is judged the same however many distinct names came before it', () => {
  for (let i = 0; i < 1000; i++) expect(isSecretHeader(`X-Custom-${i}`)).toBe(false);
  expect(isSecretHeader('X-Custom-Secret')).toBe(true);
  expect(isSecretHeader('Proxy-Authorization')).toBe(true);
  expect(isSecretHeader('User-Agent')).toBe(false);
});

test('custom auth headers by name, the WebSocket bearer subprotocol by value, access_token in a URL', () => {
  for (const name of ['X-Custom-Auth', 'x-my-token', 'X-Api-Key', 'X-Secret-Thing', 'X-Password', 'X-Client-Credential']) expect(isSecretHeader(name)).toBe(true);
  for (const name of ['Sec-WebSocket-Key', 'Sec-WebSocket-Accept', 'WWW-Authenticate', 'Keep-Alive', 'Accept', 'Content-Type']) expect(isSecretHeader(name)).toBe(false);
  const stored = JSON.parse(headersJson(['Sec-WebSocket-Protocol', 'base64url.bearer.authorization.k8s.io.dG9rZW4, v5.channel.k8s.io']));
  expect(stored).toEqual([['Sec-WebSocket-Protocol', `base64url.bearer.authorization.k8s.io.${REDACTED}, v5.channel.k8s.io`]]);
  expect(redactUrl('/api/v1/pods?access_token=abc.def&watch=1')).toBe(`/api/v1/pods?access_token=${REDACTED}&watch=1`);
  expect(redactUrl('/api/v1/pods?watch=1&ACCESS_TOKEN=x')).toBe(`/api/v1/pods?watch=1&ACCESS_TOKEN=${REDACTED}`);
  expect(redactUrl('/api/v1/pods?labelSelector=a%3Db')).toBe('/api/v1/pods?labelSelector=a%3Db');
});
