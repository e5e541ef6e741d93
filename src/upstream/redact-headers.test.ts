import { headersJson, isSecretHeader, REDACTED } from './redact-headers';

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
