import { arrayElements, goJson, lastNonWs, objectMembers, skipString, skipValue, skipWs } from './json-spans';
import { WireError } from './wire-error';

const text = (b: Buffer, s: { start: number; end: number }) => b.toString('utf8', s.start, s.end);

describe('json spans', () => {
  it('finds top-level members, skipping strings with escapes and nested brackets', () => {
    const buf = Buffer.from('{"a":"x\\"}]\\\\","b" : [1,{"c":"]"}], "d\\u0041":null ,"e":-1.5e3}');
    const { members, end } = objectMembers(buf, 0, buf.length);
    expect(end).toBe(buf.length);
    expect([...members.keys()]).toEqual(['a', 'b', 'dA', 'e']);
    expect(text(buf, members.get('a')!)).toBe('"x\\"}]\\\\"');
    expect(text(buf, members.get('b')!)).toBe('[1,{"c":"]"}]');
    expect(text(buf, members.get('e')!)).toBe('-1.5e3');
  });

  it('finds the end of a string wherever its escaped quotes and backslashes fall, before and after the first 64 bytes it reads one by one', () => {
    for (let length = 56; length <= 136; length++) {
      for (const escape of ['\\"', '\\\\']) {
        for (let at = 0; at + escape.length <= length; at += 7) {
          const inner = 'a'.repeat(at) + escape + 'b'.repeat(length - at - escape.length);
          const buf = Buffer.from(`"${inner}","next"`);
          expect(skipString(buf, 0, buf.length)).toBe(inner.length + 2);
          expect(JSON.parse(buf.toString('utf8', 0, inner.length + 2))).toBe(JSON.parse(`"${inner}"`));
        }
      }
    }
    expect(() => skipString(Buffer.from(`"${'a'.repeat(100)}`), 0, 101)).toThrow(WireError);
    expect(() => skipString(Buffer.from(`"${'a'.repeat(100)}"`), 0, 80)).toThrow(WireError); // the quote is past the end given
  });

  it('skips JSON whitespace (space, tab, CR, LF) forwards and backwards, within bounds', () => {
    const buf = Buffer.from(' \t{} \r\n');
    expect(skipWs(buf, 0, buf.length)).toBe(2);
    expect(lastNonWs(buf, buf.length - 1, 0)).toBe(3);
    expect(lastNonWs(buf, 1, 0)).toBe(-1); // nothing but whitespace down to the floor
    expect(lastNonWs(buf, buf.length - 1, 5)).toBe(4); // floor - 1: none at or above the floor
    expect(skipWs(Buffer.from('   '), 0, 3)).toBe(3);
  });

  it('splits arrays into element spans, with whitespace and UTF-8', () => {
    const buf = Buffer.from('[ {"n":"é"} ,\n "ü" , 3 , [] ]');
    expect(arrayElements(buf, 0, buf.length).map((s) => text(buf, s))).toEqual(['{"n":"é"}', '"ü"', '3', '[]']);
    expect(arrayElements(Buffer.from('[]'), 0, 2)).toEqual([]);
  });

  it.each(['{"a":1', '{"a" 1}', '{"a":1,}', '{a:1}', '{"a":"x}'])('throws WireError on %s', (bad) => {
    const buf = Buffer.from(bad);
    expect(() => objectMembers(buf, 0, buf.length)).toThrow(WireError);
  });

  it.each(['[1,2', '[1 2]', '[,]'])('throws WireError on array %s', (bad) => {
    const buf = Buffer.from(bad);
    expect(() => arrayElements(buf, 0, buf.length)).toThrow(WireError);
  });

  it('does not read past the given end', () => {
    const buf = Buffer.from('"abc" "');
    expect(() => skipValue(buf, 6, buf.length)).toThrow(WireError);
    expect(skipValue(buf, 0, 5)).toBe(5);
  });

  it("escapes like Go's encoding/json", () => {
    expect(goJson({ a: '<b>&\u2028' })).toBe('{"a":"\\u003cb\\u003e\\u0026\\u2028"}');
  });
});
