/**
 * Whether Go's regexp.Compile (RE2 syntax) accepts a pattern, and its error text for the mistakes
 * a schema's `pattern` most often holds: Perl lookarounds and backreferences (which RE2 lacks),
 * unbalanced parentheses and brackets, a repetition with nothing to repeat. Other patterns are
 * judged by JavaScript's parser, which accepts what RE2 accepts for everyday patterns. Pure.
 */

const PREFIX = 'error parsing regexp: ';

/** regexp.Compile's error text, or undefined when the pattern compiles. */
export function goRegexpError(pattern: string): string | undefined {
  let depth = 0;
  const opens: number[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      const next = pattern[i + 1];
      if (next !== undefined && /[1-9]/.test(next)) return `${PREFIX}invalid escape sequence: \`\\${next}\``;
      i++;
      continue;
    }
    if (c === '[') {
      const end = classEnd(pattern, i);
      if (end < 0) return `${PREFIX}missing closing ]: \`${pattern.slice(i)}\``;
      i = end;
      continue;
    }
    if (c === '(') {
      const perl = /^\(\?(=|!|<=|<!)/.exec(pattern.slice(i));
      if (perl) return `${PREFIX}invalid or unsupported Perl syntax: \`${perl[0]}\``;
      depth++;
      opens.push(i);
      continue;
    }
    if (c === ')') {
      if (depth === 0) return `${PREFIX}unexpected ): \`${pattern}\``;
      depth--;
      opens.pop();
      continue;
    }
    if ((c === '*' || c === '+' || c === '?') && (i === 0 || pattern[i - 1] === '(' || pattern[i - 1] === '|')) {
      return `${PREFIX}missing argument to repetition operator: \`${c}\``;
    }
  }
  if (depth > 0) return `${PREFIX}missing closing ): \`${pattern}\``;
  try {
    new RegExp(pattern);
    return undefined;
  } catch (err) {
    return `${PREFIX}${(err as Error).message}`;
  }
}

/** The index of the `]` closing the class opened at `start` (a leading `]` or `^]` is a literal), or -1. */
function classEnd(pattern: string, start: number): number {
  let i = start + 1;
  if (pattern[i] === '^') i++;
  if (pattern[i] === ']') i++;
  for (; i < pattern.length; i++) {
    if (pattern[i] === '\\') i++;
    else if (pattern[i] === ']') return i;
  }
  return -1;
}
