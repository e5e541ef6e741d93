/**
 * The same plan and seed give the same run (issue 20): two test runs of one plan against the
 * fixed provisioner end in the same objects, whole — uids, resourceVersions, generated names,
 * creationTimestamps, managedFields times and the seeded serve's CA certificate in the
 * kube-root-ca.crt ConfigMaps included.
 */
import { resolve } from 'node:path';
import { exploreRun, type RunSettings } from '../../src/explore/explore-run';
import type { Perturbation } from '../../src/explore/plan';
import { RUN_CLOCK_ORIGIN_MS } from '../../src/explore/run-clock';
import { loadWorkload } from '../../src/explore/workload';

jest.setTimeout(90_000);

const dir = resolve(__dirname, '../../examples/controllers/provisioner');
const settings: RunSettings = { controller: `node ${resolve(dir, 'fixed.js')}`, cwd: process.cwd(), workload: loadWorkload(resolve(dir, 'workload.yaml')), seed: 7, settleMs: 800 };
/** Kill the provisioner right after its first write (the create of claim-a's volume), restart it. */
const crash: Perturbation = { class: 'intermediate-state', write: 1, what: 'create configmaps demo/claim-a-volume' };

describe('explore runs are deterministic', () => {
  it('the same plan twice ends in the same objects, timestamps, uids and resourceVersions included', async () => {
    const first = await exploreRun(settings, crash);
    const second = await exploreRun(settings, crash);
    expect(first.error).toBeUndefined();
    expect(first.perturbed).toBe(true);
    expect(second.perturbed).toBe(true);
    expect(first.controllerStarts).toBe(2);

    const claim = first.objects['configmaps demo/claim-a']!;
    expect(claim.data).toMatchObject({ phase: 'Bound', volume: 'claim-a-volume' });
    // Server time is the run's clock: a second per committed change from the origin, not the wall clock.
    const origin = new Date(RUN_CLOCK_ORIGIN_MS).toISOString().slice(0, 10);
    expect(claim.metadata.creationTimestamp).toMatch(new RegExp(`^${origin}T00:\\d\\d:\\d\\dZ$`));
    expect(claim.metadata.managedFields.map((m: any) => m.time)).toEqual(expect.arrayContaining([expect.stringMatching(new RegExp(`^${origin}T`))]));
    expect(Object.keys(first.objects).length).toBeGreaterThan(5);

    expect(first.objects['configmaps demo/kube-root-ca.crt']?.data?.['ca.crt']).toMatch(/^-----BEGIN CERTIFICATE-----/);
    expect(second.objects).toEqual(first.objects);
  });
});
