import { readFile } from 'node:fs/promises';
import { yaml } from '../wire/yaml';
import { UsageError } from '../errors/usage-error';

/**
 * Reads a rules file (YAML or JSON: JSON is YAML). Whether the rules are valid is checked by
 * the injector, which names the file in its error. An unreadable or unparsable file is a
 * UsageError: one line, exit code 2.
 */
export async function loadFaultsFile(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new UsageError(`${path}: cannot read the faults file: ${(err as Error).message}`);
  }
  try {
    return yaml().parse(text, { prettyErrors: false });
  } catch (err) {
    const first = (err as Error).message.split('\n')[0];
    throw new UsageError(`${path}: not valid YAML or JSON: ${first}`);
  }
}
