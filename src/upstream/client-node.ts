/**
 * Loads @kubernetes/client-node (an ES module only) from this CommonJS package: `require` where
 * the runtime can require an ES module (Node ≥ 20.19, and jest's default CommonJS runtime when
 * client-node is transformed), else `import()` (older Node; jest run with
 * --experimental-vm-modules, which refuses `require` of an ES module). jest's CommonJS runtime
 * cannot run `import()` at all, so `require` goes first.
 */
type ClientNode = typeof import('@kubernetes/client-node');

let loaded: ClientNode | undefined;

export async function loadClientNode(): Promise<ClientNode> {
  if (loaded) return loaded;
  try {
    loaded = require('@kubernetes/client-node') as ClientNode;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ERR_REQUIRE_ESM' && (err as NodeJS.ErrnoException).code !== 'ERR_REQUIRE_ASYNC_MODULE') throw err;
    loaded = await import('@kubernetes/client-node');
  }
  return loaded;
}
