/** The in-process controllers serve runs beside its API (`--controllers`), and how a list of them is read. */
import { UsageError } from '../../errors/usage-error';

export const CONTROLLER_NAMES = ['namespace', 'gc', 'serviceaccount', 'root-ca'] as const;
export type ControllerName = (typeof CONTROLLER_NAMES)[number];

/** `--controllers` values besides the names: every controller off. */
export const NO_CONTROLLERS = 'none';

/**
 * The controllers a `--controllers` value turns on: a comma-separated list (or an array) of
 * names, `none` for none; undefined for the default (all of them). An unknown name is a
 * UsageError naming the valid ones.
 */
export function parseControllers(value: string | readonly string[] | undefined): Set<ControllerName> {
  if (value === undefined) return new Set(CONTROLLER_NAMES);
  const names = (typeof value === 'string' ? value.split(',') : [...value].flatMap((v) => v.split(','))).map((n) => n.trim()).filter((n) => n !== '');
  if (names.length === 1 && names[0] === NO_CONTROLLERS) return new Set();
  const chosen = new Set<ControllerName>();
  for (const name of names) {
    if (!(CONTROLLER_NAMES as readonly string[]).includes(name)) {
      throw new UsageError(`--controllers: unknown controller "${name}"; valid: ${CONTROLLER_NAMES.join(', ')}, or ${NO_CONTROLLERS}`);
    }
    chosen.add(name as ControllerName);
  }
  return chosen;
}
