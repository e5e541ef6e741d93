import { FaultConfigError, checkKeys, expectString, isObject } from './fields';

/**
 * A string pattern from a rule: a glob (`*`, `?`, and in paths `**`) or `{ regex: "…" }`.
 * A glob without wildcards is an exact comparison.
 */
export class Pattern {
  private constructor(
    private readonly regex: RegExp,
    /** How explain() shows it: `"cm-0*"` or `/^cm-\d+$/`. */
    readonly text: string,
  ) {}

  /** `pathGlob`: `*` stops at `/` and `**` crosses it, as in file globs; elsewhere `*` is any run of characters. */
  static parse(value: unknown, field: string, pathGlob = false): Pattern {
    if (isObject(value)) {
      checkKeys(value, ['glob', 'regex'], field);
      if (value.regex !== undefined && value.glob !== undefined) throw new FaultConfigError(field, 'give either glob or regex, not both');
      if (value.regex !== undefined) {
        const source = expectString(value.regex, `${field}.regex`);
        try {
          return new Pattern(new RegExp(source), `/${source}/`);
        } catch (err) {
          throw new FaultConfigError(`${field}.regex`, `not a valid regular expression: ${(err as Error).message}`);
        }
      }
      return Pattern.glob(expectString(value.glob, `${field}.glob`), pathGlob);
    }
    return Pattern.glob(expectString(value, field), pathGlob);
  }

  static glob(glob: string, pathGlob = false): Pattern {
    let source = '';
    for (let i = 0; i < glob.length; i++) {
      const c = glob[i]!;
      if (c === '*') {
        if (pathGlob && glob[i + 1] === '*') {
          source += '.*';
          i++;
        } else {
          source += pathGlob ? '[^/]*' : '.*';
        }
      } else if (c === '?') {
        source += pathGlob ? '[^/]' : '.';
      } else {
        source += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
      }
    }
    return new Pattern(new RegExp(`^${source}$`, 's'), JSON.stringify(glob));
  }

  test(value: string): boolean {
    return this.regex.test(value);
  }
}
