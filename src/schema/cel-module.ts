/**
 * The CEL library (@marcbachmann/cel-js, an ES module only), loaded when first needed rather than
 * at serve's start. Pure.
 */
import type * as Cel from '@marcbachmann/cel-js' with { 'resolution-mode': 'import' };
import { installHasOfAnyOperand } from './cel-has-macro';

let cel: typeof Cel | undefined;

/**
 * The CEL library (an ES module only). `require` where the runtime can require an ES module (Node
 * ≥ 20.19, jest's CommonJS runtime when the package is transformed); `loadCelLibrary` loads it
 * ahead with `import()` where only that works (jest run with --experimental-vm-modules).
 */
export function celLibrary(): typeof Cel {
  return (cel ??= installed(require('@marcbachmann/cel-js') as typeof Cel));
}

/**
 * Loads the CEL library ahead of the rules of the CRDs about to be written (serve calls it before
 * a CRD write and `--crds`). A runtime that can load it neither way is left to fail when a rule
 * is compiled, so that a process that never meets a rule does not need it.
 */
export async function loadCelLibrary(): Promise<void> {
  if (cel) return;
  try {
    cel = installed(require('@marcbachmann/cel-js') as typeof Cel);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ERR_REQUIRE_ESM' && code !== 'ERR_REQUIRE_ASYNC_MODULE') return;
    const lib = await import('@marcbachmann/cel-js').catch(() => undefined);
    cel = lib && installed(lib);
  }
}

/** The library with cel-go's `has()` of any operand (./cel-has-macro). */
function installed(lib: typeof Cel): typeof Cel {
  installHasOfAnyOperand(lib);
  return lib;
}
