/**
 * The assembly rehearsal mode runs: the CDK app synthesized for stage dev with the local stack's
 * sender (so the template's ses:FromAddress condition names the address the local functions send
 * from), cached by infra/assembly.ts; or an assembly folder named outright (a test's broken copy).
 * Its own module: the test suites' global setup makes the assembly before the stack starts.
 */
import { type CachedAssembly, cachedAssembly, readAssembly } from '../../assembly.ts';

/** The sender the local stack's functions use. */
export const localMailFrom = 'no-reply@cobro.local';

export function rehearsalAssembly(
  outdir?: string,
  onSynth?: (message: string) => void,
): Promise<CachedAssembly> {
  if (outdir) return Promise.resolve(readAssembly(outdir));
  return cachedAssembly({
    stage: 'dev',
    context: { mailFrom: localMailFrom },
    ...(onSynth ? { onSynth } : {}),
  });
}
