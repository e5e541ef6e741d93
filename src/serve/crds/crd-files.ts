/**
 * CustomResourceDefinitions from files, as envtest's `CRDDirectoryPaths` reads them: each path a
 * file or a folder (its `.yaml`, `.yml` and `.json` files, not recursing), YAML files with any
 * number of documents; documents of another kind are skipped, `List`s are opened.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { yaml } from '../../wire/yaml';
import { UsageError } from '../../errors/usage-error';
import { isPlainObject } from '../../wire/json-object';

type Obj = Record<string, any>;

const EXTENSIONS = new Set(['.yaml', '.yml', '.json']);

/** Every CRD object in the paths, with the file it came from. */
export function readCrdFiles(paths: readonly string[]): Array<{ file: string; crd: Obj }> {
  const out: Array<{ file: string; crd: Obj }> = [];
  for (const path of paths) {
    let files: string[];
    try {
      files = statSync(path).isDirectory()
        ? readdirSync(path).filter((f) => EXTENSIONS.has(extname(f).toLowerCase())).sort().map((f) => join(path, f))
        : [path];
    } catch (err) {
      throw new UsageError(`--crds ${path}: ${(err as Error).message}`);
    }
    for (const file of files) for (const crd of crdsIn(file)) out.push({ file, crd });
  }
  return out;
}

function crdsIn(file: string): Obj[] {
  const text = readFileSync(file, 'utf8');
  const docs: unknown[] = [];
  for (const doc of yaml().parseAllDocuments(text)) {
    if (doc.errors.length > 0) throw new UsageError(`--crds ${file}: ${doc.errors[0]!.message.split('\n')[0]}`);
    docs.push(doc.toJS());
  }
  const objects = docs.flatMap((d) => (isPlainObject(d) && d.kind === 'List' && Array.isArray(d.items) ? d.items : [d]));
  return objects.filter((o): o is Obj => isPlainObject(o) && o.kind === 'CustomResourceDefinition' && String(o.apiVersion ?? '').startsWith('apiextensions.k8s.io/'));
}

