#!/usr/bin/env bash
# Checks the package as a consumer gets it: `npm pack`, the tarball unpacked into a scratch
# project whose node_modules holds only the package's declared dependencies (linked from this
# repository's node_modules: no network), then
#   - tsc on a file using the public types, skipLibCheck off (no dev-only types may leak);
#   - jest as the README documents it (CommonJS, client-node transformed by @swc/jest), and as
#     an ES-module test (--experimental-vm-modules): serve, record (through a kubeconfig) and replay;
#   - the CLI as `npx kubetape` runs it: from its one-file bundle, with a code cache this Node takes.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
MODULES="$ROOT/node_modules"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/kubetape-package-XXXXXX")"
trap 'rm -rf "$WORK"' EXIT

[ -f "$ROOT/dist/index.js" ] || { echo "check-package: dist/ missing: run npm run build first" >&2; exit 1; }
tarball="$(cd "$ROOT" && npm pack --ignore-scripts --silent --pack-destination "$WORK" 2>/dev/null | tail -1)"
PROJECT="$WORK/project"
mkdir -p "$PROJECT/node_modules/kubetape"
tar -xzf "$WORK/$tarball" -C "$PROJECT/node_modules/kubetape" --strip-components=1

# The package's dependencies, and the consumer's own dev tools (jest, swc, typescript, node types).
link() { mkdir -p "$(dirname "$PROJECT/node_modules/$1")"; ln -s "$MODULES/$1" "$PROJECT/node_modules/$1"; }
for dep in $(node -e 'console.log(Object.keys(require(process.argv[1]).dependencies || {}).join(" "))' "$PROJECT/node_modules/kubetape/package.json"); do link "$dep"; done
for tool in jest @swc/jest @swc/core typescript @types/node; do link "$tool"; done

cp "$ROOT"/scripts/package-check/{modes.test.js,modes.test.mjs,check.ts} "$PROJECT/"
cat > "$PROJECT/package.json" <<'JSON'
{ "name": "consumer", "private": true }
JSON
# The jest set-up the README documents for client-node's ES-module-only build.
cat > "$PROJECT/jest.config.js" <<'JS'
module.exports = {
  testEnvironment: 'node',
  testTimeout: 60000,
  transform: { '^.+\\.(t|j|mj)s$': ['@swc/jest', { module: { type: 'commonjs' } }] },
  transformIgnorePatterns: ['/node_modules/(?!(@kubernetes/client-node|@marcbachmann/cel-js|openid-client|oauth4webapi|jose|hpagent)/)'],
};
JS
cat > "$PROJECT/jest.esm.config.js" <<'JS'
module.exports = { testEnvironment: 'node', testTimeout: 60000, transform: {}, testMatch: ['**/*.test.mjs'] };
JS
cat > "$PROJECT/tsconfig.json" <<'JSON'
{ "compilerOptions": { "strict": true, "skipLibCheck": false, "module": "nodenext", "moduleResolution": "nodenext", "target": "es2022", "types": ["node"], "noEmit": true }, "files": ["check.ts"] }
JSON

cd "$PROJECT"
echo "check-package: $tarball: types with skipLibCheck off"
node node_modules/typescript/bin/tsc -p tsconfig.json
echo "check-package: jest, CommonJS (client-node transformed)"
node node_modules/jest/bin/jest.js --ci --config jest.config.js --testMatch '**/*.test.js' --cacheDirectory "$WORK/jest-cache"
echo "check-package: jest, ES modules (--experimental-vm-modules)"
NODE_OPTIONS=--experimental-vm-modules node node_modules/jest/bin/jest.js --ci --config jest.esm.config.js --cacheDirectory "$WORK/jest-cache"
echo "check-package: the CLI loads its bundle and code cache"
node -e '
  const { script } = require("./node_modules/kubetape/bin/load-cli.js").loadCli();
  if (!script) throw new Error("bin/load-cli.js loaded dist/ module by module, not the bundle");
  if (script.cachedDataRejected !== false) throw new Error("the bundle code cache was missing or refused");
'
node node_modules/kubetape/bin/kubetape.js --help > "$WORK/help.txt"
grep -q "kubetape serve" "$WORK/help.txt"
echo "check-package: ok"
