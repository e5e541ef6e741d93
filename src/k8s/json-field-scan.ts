/**
 * The object keys of a JSON text in body order, with the repeated ones that JSON.parse silently
 * folds (last value wins), so that strict decoding can report them as sigs.k8s.io/json does:
 * `duplicate field "data"`, paths joined with `.` and array elements as `[i]`
 * (`spec.containers[0].name`). The text must already be valid JSON (goJsonSyntaxError, the port
 * of Go's scanner, decides that); this walk only follows its structure. Pure.
 */

export interface JsonFieldScan {
  /** Each key path at the position (in body order, counting keys) where it first appears. */
  firstSeen: Map<string, number>;
  /** Each repeated key: the key, its path, the position of the repetition and its offset in the text. */
  duplicates: Array<{ key: string; path: string; at: number; offset: number }>;
}

/** Scans `text`; a text without a repeated key has `duplicates` empty. */
export function scanJsonFields(text: string): JsonFieldScan {
  const scan: JsonFieldScan = { firstSeen: new Map(), duplicates: [] };
  new Walker(text, scan).value('');
  return scan;
}

class Walker {
  private i = 0;
  private keys = 0;

  constructor(private readonly text: string, private readonly scan: JsonFieldScan) {}

  value(path: string): void {
    this.space();
    const c = this.text.charCodeAt(this.i);
    if (c === 0x7b) return this.object(path);
    if (c === 0x5b) return this.array(path);
    if (c === 0x22) {
      this.string();
      return;
    }
    while (this.i < this.text.length && !isEnd(this.text.charCodeAt(this.i))) this.i++;
  }

  private object(path: string): void {
    this.i++;
    const seen = new Set<string>();
    this.space();
    if (this.text.charCodeAt(this.i) === 0x7d) {
      this.i++;
      return;
    }
    for (;;) {
      this.space();
      const offset = this.i;
      const key = this.string();
      const at = path ? `${path}.${key}` : key;
      const n = this.keys++;
      if (seen.has(key)) this.scan.duplicates.push({ key, path: at, at: n, offset });
      else seen.add(key);
      if (!this.scan.firstSeen.has(at)) this.scan.firstSeen.set(at, n);
      this.space();
      this.i++; // :
      this.value(at);
      this.space();
      if (this.text.charCodeAt(this.i++) === 0x7d) return;
    }
  }

  private array(path: string): void {
    this.i++;
    this.space();
    if (this.text.charCodeAt(this.i) === 0x5d) {
      this.i++;
      return;
    }
    for (let index = 0; ; index++) {
      this.value(`${path}[${index}]`);
      this.space();
      if (this.text.charCodeAt(this.i++) === 0x5d) return;
    }
  }

  /** Reads a string literal at the cursor and returns its value. */
  private string(): string {
    const start = this.i++;
    let escaped = false;
    for (;;) {
      const c = this.text.charCodeAt(this.i++);
      if (c === 0x5c) {
        escaped = true;
        this.i++;
      } else if (c === 0x22 || Number.isNaN(c)) break;
    }
    const literal = this.text.slice(start, this.i);
    return escaped ? (JSON.parse(literal) as string) : literal.slice(1, -1);
  }

  private space(): void {
    for (;;) {
      const c = this.text.charCodeAt(this.i);
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return;
      this.i++;
    }
  }
}

function isEnd(c: number): boolean {
  return c === 0x2c || c === 0x7d || c === 0x5d || c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}
