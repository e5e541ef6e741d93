/** kubectl for the fault tests (the dispatcher at /usr/bin/kubectl), timed. */
import { kubectl as runKubectl, type KubectlResult } from '../support/kube-clients';

export { sleep, eventually, type KubectlResult } from '../support/kube-clients';

/** kubectl, timed: fault tests check how long retries took. */
export async function kubectl(kubeconfig: string, cacheDir: string, args: string[], timeoutMs?: number): Promise<KubectlResult & { ms: number }> {
  const t0 = performance.now();
  const result = await runKubectl(kubeconfig, cacheDir, args, timeoutMs);
  return { ...result, ms: performance.now() - t0 };
}
