import { UsageError } from '../errors/usage-error';

/** A numeric flag's value (yargs passes it as typed): a number, or a UsageError saying what the flag expects. */
export function numberArg(flag: string, value: string | number, expects: string, valid: (n: number) => boolean = Number.isFinite): number {
  const n = typeof value === 'number' ? value : String(value).trim() === '' ? NaN : Number(value);
  if (!valid(n)) throw new UsageError(`${flag} expects ${expects}, got ${JSON.stringify(String(value))}`);
  return n;
}
