#!/usr/bin/env node
'use strict';
/**
 * Adds lockfile records for platform-specific optional packages the npm registry reachable here
 * does not serve (it answers 404 for e.g. @swc/core-darwin-arm64). npm writes no record for them,
 * and `npm ci` then refuses the lockfile ("Missing: X from lock file"). Each record carries the
 * package's os/cpu, so `npm ci` skips it on every other platform without fetching it.
 *
 * Usage: node scripts/lock-platform-stubs.js   (after `npm install` changed package-lock.json)
 */
const { readFileSync, writeFileSync } = require('node:fs');
const { execFileSync } = require('node:child_process');
const path = require('node:path');

const lockPath = path.join(__dirname, '..', 'package-lock.json');
const lock = JSON.parse(readFileSync(lockPath, 'utf8'));

let out = '';
try {
  execFileSync('npm', ['ci', '--ignore-scripts', '--dry-run'], { cwd: path.dirname(lockPath), stdio: 'pipe' });
} catch (err) {
  out = String(err.stdout) + String(err.stderr);
}
const missing = [...new Set([...out.matchAll(/Missing: (\S+?)@\S* from lock file/g)].map((m) => m[1]))];
if (missing.length === 0) {
  console.log('lockfile is complete');
  process.exit(0);
}

for (const name of missing) {
  const parent = Object.values(lock.packages).find((p) => p.optionalDependencies && p.optionalDependencies[name]);
  if (!parent) throw new Error(`no package declares ${name} as optional`);
  lock.packages[`node_modules/${name}`] = {
    version: parent.optionalDependencies[name],
    ...platformOf(name),
    optional: true,
  };
}
lock.packages = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : 1)));
writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`added ${missing.length} platform records: ${missing.join(' ')}`);

function platformOf(name) {
  const base = name.split('/').pop();
  const os = ['darwin', 'linux', 'win32', 'android', 'freebsd', 'openharmony'].find((o) => base.includes(`-${o}-`));
  const cpu = ['arm64', 'x64', 'ia32', 'arm', 'ppc64', 's390x', 'riscv64', 'loong64'].find((c) => base.includes(`-${c}`));
  if (!os || !cpu) throw new Error(`cannot tell the platform of ${name}`);
  const record = { cpu: [cpu], os: [os] };
  if (base.includes('musl')) record.libc = ['musl'];
  else if (base.includes('gnu')) record.libc = ['glibc'];
  return record;
}
