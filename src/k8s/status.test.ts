import { statusFor } from './status';

describe('statusFor', () => {
  test('500 is NewInternalError: prefixed message, the error as the one cause', () => {
    expect(JSON.stringify(statusFor(500, 'etcdserver: leader changed').status)).toBe(
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Internal error occurred: etcdserver: leader changed","reason":"InternalError","details":{"causes":[{"message":"etcdserver: leader changed"}]},"code":500}',
    );
  });

  test('500 with the prefix already given or no message at all, with Retry-After', () => {
    expect(statusFor(500, 'Internal error occurred: boom').status).toMatchObject({ message: 'Internal error occurred: boom', details: { causes: [{ message: 'boom' }] } });
    const withRetry = statusFor(500, undefined, 3);
    expect(withRetry.status).toMatchObject({ message: 'Internal error occurred: injected fault', details: { causes: [{ message: 'injected fault' }], retryAfterSeconds: 3 } });
    expect(withRetry.headers).toEqual({ 'Retry-After': '3' });
  });

  test('other codes carry no causes', () => {
    expect(statusFor(503).status.details).toBeUndefined();
  });
});
