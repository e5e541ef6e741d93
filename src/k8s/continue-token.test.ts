import { decodeContinueToken, encodeContinueToken, continueAfter, goPathClean } from './continue-token';

const message = (token: string): string => {
  try {
    decodeContinueToken(token);
  } catch (err) {
    return (err as Error).message;
  }
  return 'no error';
};

describe('continue tokens', () => {
  it('encodes exactly like the apiserver (a1, b2)', () => {
    expect(continueAfter(232, 'cm-05')).toBe('eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MjMyLCJzdGFydCI6ImNtLTA1XHUwMDAwIn0');
    expect(encodeContinueToken(-1, 'cm-05\u0000')).toBe('eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6LTEsInN0YXJ0IjoiY20tMDVcdTAwMDAifQ');
    expect(continueAfter(250, 'bm-1')).toBe('eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MjUwLCJzdGFydCI6ImJtLTFcdTAwMDAifQ');
  });

  it('decodes a real token', () => {
    expect(decodeContinueToken('eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MjMyLCJzdGFydCI6ImNtLTA1XHUwMDAwIn0')).toEqual({ rv: 232, start: 'cm-05\u0000' });
    expect(decodeContinueToken(encodeContinueToken(-1, 'tx/cm-05\u0000'))).toEqual({ rv: -1, start: 'tx/cm-05\u0000' });
  });

  it('rejects garbage with Go\'s words (d13)', () => {
    expect(message('garbage')).toBe("continue key is not valid: invalid character '\\u0081' looking for beginning of value");
    expect(message('abc$')).toBe('continue key is not valid: illegal base64 data at input byte 3');
    expect(message('abcde')).toBe('continue key is not valid: illegal base64 data at input byte 4');
    expect(message(b64('{}'))).toBe('server does not recognize this encoded version ');
    expect(message(b64('[1]'))).toBe('continue key is not valid: json: cannot unmarshal array into Go value of type storage.continueToken');
    expect(message(b64('{"rv":"x"}'))).toBe('continue key is not valid: json: cannot unmarshal string into Go struct field continueToken.rv of type int64');
    expect(message(b64('{"v":"meta.k8s.io/v1","rv":0,"start":"a"}'))).toBe(
      'continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)',
    );
    expect(message(b64('{"v":"meta.k8s.io/v1","rv":5,"start":""}'))).toBe('continue key is not valid: encoded start key empty (version meta.k8s.io/v1)');
    expect(message(b64('{"v":"meta.k8s.io/v1","rv":5,"start":"../x"}'))).toBe('continue key is not valid: ../x');
    expect(message(b64('{"v":"meta.k8s.io/v2","rv":5,"start":"x"}'))).toBe('server does not recognize this encoded version meta.k8s.io/v2');
    expect(message(b64('{"v":'))).toBe('continue key is not valid: unexpected end of JSON input');
    expect(message(b64('{"v" 1}'))).toBe("continue key is not valid: invalid character '1' after object key");
    expect(message(b64('{"v":tru}'))).toBe("continue key is not valid: invalid character '}' in literal true (expecting 'e')");
    expect(message(b64('{} x'))).toBe("continue key is not valid: invalid character 'x' after top-level value");
  });

  it('cleans paths like Go', () => {
    expect(goPathClean('/a/../b')).toBe('/b');
    expect(goPathClean('/a//b/')).toBe('/a/b');
    expect(goPathClean('/cm-05\u0000')).toBe('/cm-05\u0000');
  });
});

function b64(s: string): string {
  return Buffer.from(s).toString('base64url');
}
