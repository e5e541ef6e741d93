import { goBase64UrlDecode, goDateTimeError } from './go-scalar-parse';

describe('goBase64UrlDecode (Go\'s base64.URLEncoding.Decode)', () => {
  it('decodes the URL alphabet with padding, skipping line breaks', () => {
    expect(Buffer.from(goBase64UrlDecode('aGk=') as Uint8Array).toString()).toBe('hi');
    expect(Buffer.from(goBase64UrlDecode('aGkh') as Uint8Array).toString()).toBe('hi!');
    expect(Buffer.from(goBase64UrlDecode('aGk\nh') as Uint8Array).toString()).toBe('hi!');
    expect(goBase64UrlDecode('a-_\naGk=')).toBe('illegal base64 data at input byte 8');
    expect(goBase64UrlDecode('a-_\naGkh')).toBe('illegal base64 data at input byte 5');
    expect(goBase64UrlDecode('')).toEqual(new Uint8Array());
  });

  it('fails where Go fails, at Go\'s byte offset', () => {
    expect(goBase64UrlDecode('a+c=')).toBe('illegal base64 data at input byte 1');
    expect(goBase64UrlDecode('YQ')).toBe('illegal base64 data at input byte 0');
    expect(goBase64UrlDecode('YQ=')).toBe('illegal base64 data at input byte 3');
    expect(goBase64UrlDecode('Y===')).toBe('illegal base64 data at input byte 1');
    expect(goBase64UrlDecode('YQ==YQ==')).toBe('illegal base64 data at input byte 4');
    expect(goBase64UrlDecode('é')).toBe('illegal base64 data at input byte 0');
  });
});

describe('goDateTimeError (strfmt.ParseDateTime)', () => {
  it('parses what Go parses; a lowercase t or z is Go\'s error from the last layout', () => {
    expect(goDateTimeError('2024-05-06T07:08:09Z')).toBeUndefined();
    expect(goDateTimeError('2024-05-06T07:08:09.5+02:00')).toBeUndefined();
    expect(goDateTimeError('2024-05-06t07:08:09Z')).toBe('parsing time "2024-05-06t07:08:09Z" as "2006-01-02T15:04:05": cannot parse "t07:08:09Z" as "T"');
    expect(goDateTimeError('2024-05-06T07:08:09z')).toBe('parsing time "2024-05-06T07:08:09z": extra text: "z"');
  });
});
