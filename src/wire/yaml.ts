/**
 * The `yaml` package, loaded on first use: most runs never read or write YAML (JSON bodies, no
 * fault or CRD files), and loading it is a tenth of serve's start-up.
 */
let loaded: typeof import('yaml') | undefined;

export function yaml(): typeof import('yaml') {
  return (loaded ??= require('yaml') as typeof import('yaml'));
}
