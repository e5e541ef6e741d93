/**
 * A port of Go encoding/json's scanner state machine (scanner.go): steps through the bytes of a
 * JSON text and stops at the first syntax error with Go's message for it. Pure.
 */
import { goQuoteChar } from './go-quote';

type Step = (c: number) => number;

export const CONTINUE = 0;
export const ERROR = 1;

const PARSE_OBJECT_KEY = 0;
const PARSE_OBJECT_VALUE = 1;
const PARSE_ARRAY_VALUE = 2;

export class GoScanner {
  err = '';
  private parseState: number[] = [];
  private endTop = false;
  private stepFn: Step = (c) => this.beginValue(c);

  step(c: number): number {
    return this.stepFn(c);
  }

  eof(): number {
    if (this.err) return ERROR;
    if (this.endTop) return CONTINUE;
    this.stepFn(0x20);
    if (this.endTop) return CONTINUE;
    if (!this.err) this.err = 'unexpected end of JSON input';
    return ERROR;
  }

  private fail(c: number, context: string): number {
    this.stepFn = () => ERROR;
    this.err = `invalid character ${goQuoteChar(c)} ${context}`;
    return ERROR;
  }

  private beginValueOrEmpty(c: number): number {
    if (isSpace(c)) return CONTINUE;
    if (c === 0x5d) return this.endValue(c);
    return this.beginValue(c);
  }

  private beginValue(c: number): number {
    if (isSpace(c)) return CONTINUE;
    switch (c) {
      case 0x7b: // {
        this.stepFn = (d) => this.beginStringOrEmpty(d);
        this.parseState.push(PARSE_OBJECT_KEY);
        return CONTINUE;
      case 0x5b: // [
        this.stepFn = (d) => this.beginValueOrEmpty(d);
        this.parseState.push(PARSE_ARRAY_VALUE);
        return CONTINUE;
      case 0x22:
        this.stepFn = (d) => this.inString(d);
        return CONTINUE;
      case 0x2d:
        this.stepFn = (d) => this.neg(d);
        return CONTINUE;
      case 0x30:
        this.stepFn = (d) => this.zero(d);
        return CONTINUE;
      case 0x74:
        return this.literal('true', 1);
      case 0x66:
        return this.literal('false', 1);
      case 0x6e:
        return this.literal('null', 1);
    }
    if (c >= 0x31 && c <= 0x39) {
      this.stepFn = (d) => this.one(d);
      return CONTINUE;
    }
    return this.fail(c, 'looking for beginning of value');
  }

  private literal(word: string, at: number): number {
    this.stepFn = (d) => {
      if (d !== word.charCodeAt(at)) return this.fail(d, `in literal ${word} (expecting '${word[at]}')`);
      if (at + 1 === word.length) {
        this.stepFn = (e) => this.endValue(e);
        return CONTINUE;
      }
      return this.literal(word, at + 1);
    };
    return CONTINUE;
  }

  private beginStringOrEmpty(c: number): number {
    if (isSpace(c)) return CONTINUE;
    if (c === 0x7d) {
      this.parseState[this.parseState.length - 1] = PARSE_OBJECT_VALUE;
      return this.endValue(c);
    }
    return this.beginString(c);
  }

  private beginString(c: number): number {
    if (isSpace(c)) return CONTINUE;
    if (c === 0x22) {
      this.stepFn = (d) => this.inString(d);
      return CONTINUE;
    }
    return this.fail(c, 'looking for beginning of object key string');
  }

  private endValue(c: number): number {
    const n = this.parseState.length;
    if (n === 0) {
      this.endTop = true;
      this.stepFn = (d) => this.endTopStep(d);
      return this.endTopStep(c);
    }
    if (isSpace(c)) {
      this.stepFn = (d) => this.endValue(d);
      return CONTINUE;
    }
    switch (this.parseState[n - 1]) {
      case PARSE_OBJECT_KEY:
        if (c === 0x3a) {
          this.parseState[n - 1] = PARSE_OBJECT_VALUE;
          this.stepFn = (d) => this.beginValue(d);
          return CONTINUE;
        }
        return this.fail(c, 'after object key');
      case PARSE_OBJECT_VALUE:
        if (c === 0x2c) {
          this.parseState[n - 1] = PARSE_OBJECT_KEY;
          this.stepFn = (d) => this.beginString(d);
          return CONTINUE;
        }
        if (c === 0x7d) return this.pop();
        return this.fail(c, 'after object key:value pair');
      default:
        if (c === 0x2c) {
          this.stepFn = (d) => this.beginValue(d);
          return CONTINUE;
        }
        if (c === 0x5d) return this.pop();
        return this.fail(c, 'after array element');
    }
  }

  private pop(): number {
    this.parseState.pop();
    if (this.parseState.length === 0) {
      this.endTop = true;
      this.stepFn = (d) => this.endTopStep(d);
    } else {
      this.stepFn = (d) => this.endValue(d);
    }
    return CONTINUE;
  }

  private endTopStep(c: number): number {
    if (!isSpace(c)) return this.fail(c, 'after top-level value');
    return CONTINUE;
  }

  private inString(c: number): number {
    if (c === 0x22) {
      this.stepFn = (d) => this.endValue(d);
      return CONTINUE;
    }
    if (c === 0x5c) {
      this.stepFn = (d) => this.inStringEsc(d);
      return CONTINUE;
    }
    if (c < 0x20) return this.fail(c, 'in string literal');
    return CONTINUE;
  }

  private inStringEsc(c: number): number {
    if ('bfnrt\\/"'.includes(String.fromCharCode(c))) {
      this.stepFn = (d) => this.inString(d);
      return CONTINUE;
    }
    if (c === 0x75) return this.hexEscape(0);
    return this.fail(c, 'in string escape code');
  }

  private hexEscape(done: number): number {
    this.stepFn = (d) => {
      if (!isHex(d)) return this.fail(d, 'in \\u hexadecimal character escape');
      if (done === 3) {
        this.stepFn = (e) => this.inString(e);
        return CONTINUE;
      }
      return this.hexEscape(done + 1);
    };
    return CONTINUE;
  }

  private neg(c: number): number {
    if (c === 0x30) {
      this.stepFn = (d) => this.zero(d);
      return CONTINUE;
    }
    if (c >= 0x31 && c <= 0x39) {
      this.stepFn = (d) => this.one(d);
      return CONTINUE;
    }
    return this.fail(c, 'in numeric literal');
  }

  private one(c: number): number {
    if (isDigit(c)) return CONTINUE;
    return this.zero(c);
  }

  private zero(c: number): number {
    if (c === 0x2e) {
      this.stepFn = (d) => this.dot(d);
      return CONTINUE;
    }
    if (c === 0x65 || c === 0x45) {
      this.stepFn = (d) => this.exp(d);
      return CONTINUE;
    }
    return this.endValue(c);
  }

  private dot(c: number): number {
    if (isDigit(c)) {
      this.stepFn = (d) => this.dot0(d);
      return CONTINUE;
    }
    return this.fail(c, 'after decimal point in numeric literal');
  }

  private dot0(c: number): number {
    if (isDigit(c)) return CONTINUE;
    if (c === 0x65 || c === 0x45) {
      this.stepFn = (d) => this.exp(d);
      return CONTINUE;
    }
    return this.endValue(c);
  }

  private exp(c: number): number {
    if (c === 0x2b || c === 0x2d) {
      this.stepFn = (d) => this.expSign(d);
      return CONTINUE;
    }
    return this.expSign(c);
  }

  private expSign(c: number): number {
    if (isDigit(c)) {
      this.stepFn = (d) => (isDigit(d) ? CONTINUE : this.endValue(d));
      return CONTINUE;
    }
    return this.fail(c, 'in exponent of numeric literal');
  }
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isHex(c: number): boolean {
  return isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
}
