/** Bad input the user must fix (flags, kubeconfig, context, rules file): one line on stderr, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}
