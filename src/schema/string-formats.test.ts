import { durationText, matchesFormat } from './string-formats';

describe('matchesFormat (the formats a v1.26 apiserver checks on custom resources)', () => {
  it.each([
    ['date-time', '2024-05-06T07:08:09Z', true], ['date-time', '2024-05-06t07:08:09.123+02:00', true], ['date-time', '2024-05-06T24:00:00Z', false],
    ['date-time', '2024-05-06 07:08:09Z', false], ['datetime', 'nope', false],
    ['date', '2024-02-29', true], ['date', '2023-02-29', false], ['date', '2024-1-02', false],
    ['duration', '1h30m', true], ['duration', '-1.5s', true], ['duration', '3 days', true], ['duration', '2 hours 5 min', true], ['duration', 'nonsense', false], ['duration', '5', false],
    ['byte', 'aGk=', true], ['byte', 'aGk', false],
    ['uuid', '0B8F4B3C-1d2e-4f5a-8b9c-0d1e2f3a4b5c', true], ['uuid4', '0b8f4b3c-1d2e-3f5a-8b9c-0d1e2f3a4b5c', false], ['uuid', 'x', false], ['uuid3', 'a3bb189e-8bf9-3888-1912-ace4e6543002', true], ['uuid3', 'a3bb189e-8bf9-4888-9912-ace4e6543002', false],
    ['hostname', 'my-host.example.com', true], ['hostname', '-bad', false], ['hostname', 'a'.repeat(64), false],
    ['ipv4', '10.0.0.1', true], ['ipv4', '010.0.0.1', true], ['ipv4', '::1', false], ['ipv6', '::1', true], ['ipv6', '10.0.0.1', false],
    ['cidr', '10.0.0.0/8', true], ['cidr', '10.0.0.0', false],
    ['mac', '00:1a:2B:3c:4d:5e', true], ['mac', '00:1a', false], ['mac', '00-1a-2b-3c-4d-5e-6f-70', true], ['mac', '00:1a-2b:3c:4d:5e', false],
    ['mac', '001a.2b3c.4d5e', true], ['mac', '001a.2b3c.4d5e.6f70.8192', false],
    ['uri', 'https://example.com/x', true], ['uri', '/abs/path', true], ['uri', 'rel/path', false],
    ['email', 'a@example.com', true], ['email', 'Jo <a@example.com>', true], ['email', 'nope', false],
    ['isbn10', '0-306-40615-2', true], ['isbn10', '0-306-40615-3', false], ['isbn10', '080442957X', true], ['isbn13', '978-0-306-40615-7', true], ['isbn13', '9780306406158', false],
    ['isbn', '978 0 306 40615 7', true], ['isbn', '0306406152', true], ['isbn', 'nope', false],
    ['creditcard', '4111 1111 1111 1111', true], ['creditcard', '4111-1111-1111-1112', false], ['creditcard', '1234', false],
    ['ssn', '123-45-6789', true], ['ssn', '123 45 6789', true], ['ssn', '123456789', false], ['ssn', '12-345-6789', false],
    ['int32', 'anything', true], ['int64', 'x', true], ['float', 'x', true], ['password', '', true], ['made-up', 'x', true],
  ])('%s %j → %s', (format, value, ok) => {
    expect(matchesFormat(format, value)).toBe(ok);
  });

  it('reads strfmt durations into Go syntax for CEL', () => {
    expect(durationText('90m')).toBe('90m');
    expect(durationText('3 days')).toBe('259200000000000ns');
    expect(durationText('1 hour 30 min')).toBe(`${90n * 60n * 1_000_000_000n}ns`);
    expect(durationText('soon')).toBeUndefined();
  });
});
