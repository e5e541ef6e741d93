/**
 * The rules files in examples/faults/ load in the modes they say they are for (and a serve-only
 * one is refused elsewhere); a bad rules file stops every command with one line and exit code 2.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FAULT_MODES, FaultInjector, type FaultMode } from '../../src/faults';

const EXAMPLES = join(__dirname, '..', '..', 'examples', 'faults');
const files = readdirSync(EXAMPLES).filter((f) => f.endsWith('.yaml'));

describe('examples/faults', () => {
  it('has a rules file for each hard case', () => {
    expect(files.sort()).toEqual(['expired-continue-token.yaml', 'stale-cache-after-restart.yaml', 'throttling.yaml', 'watch-410-storm.yaml']);
  });

  it.each(files)('%s loads in the modes its header names, and only there', async (file) => {
    const path = join(EXAMPLES, file);
    const header = /^# Modes: ([a-z, ]+)/m.exec(readFileSync(path, 'utf8'));
    expect(header).not.toBeNull();
    const modes = header![1]!.split(',').map((m) => m.trim()) as FaultMode[];
    for (const mode of FAULT_MODES) {
      const loading = FaultInjector.create(path, { mode });
      if (modes.includes(mode)) expect((await loading).size).toBeGreaterThan(0);
      else await expect(loading).rejects.toThrow(/works in serve mode only/);
    }
  });
});

describe('kubetape … --faults BAD (built CLI: npm run build first, as npm test does)', () => {
  const bin = join(__dirname, '..', '..', 'bin', 'kubetape.js');
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'kubetape-faults-cli-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    ['record', ['--upstream', 'http://127.0.0.1:9']],
    ['replay', []],
    ['serve', []],
  ])('%s: one line naming the file, the rule and the field; exit code 2', (command, extra) => {
    const rules = join(dir, `${command}.yaml`);
    writeFileSync(rules, 'faults:\n  - name: flaky-get\n    match: { verb: get }\n    action: { type: status, code: 500 }\n    probability: 1.5\n');
    const result = spawnSync(process.execPath, [bin, command, '--db', join(dir, `${command}.db`), '--listen', '127.0.0.1:0', '--faults', rules, ...extra], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(result.stderr).toBe(`kubetape: ${rules}: rule "flaky-get": probability: must be between 0 and 1\n`);
    expect(result.status).toBe(2);
  });

  it('a serve-only action in record mode', () => {
    const rules = join(dir, 'stale.yaml');
    writeFileSync(rules, 'faults:\n  - name: lag\n    action: { type: stale-read, revisions: 2 }\n');
    const result = spawnSync(process.execPath, [bin, 'record', '--db', join(dir, 'r.db'), '--upstream', 'http://127.0.0.1:9', '--listen', '127.0.0.1:0', '--faults', rules], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(result.stderr).toBe(`kubetape: ${rules}: rule "lag": action.type: stale-read works in serve mode only (this is record mode)\n`);
    expect(result.status).toBe(2);
  });
});
