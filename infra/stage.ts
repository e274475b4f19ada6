/**
 * The deployment stages, in their own module so that the stack (infra/cobro-stack.ts) and the API
 * construct (infra/api.ts) both import it without importing each other.
 */

export type Stage = 'dev' | 'prod';

/** The stages the app can be synthesized for. */
export const stages: readonly Stage[] = ['dev', 'prod'];

/** Checks the `stage` context value, failing synth on anything but `dev` or `prod`. */
export function parseStage(value: unknown): Stage {
  if (typeof value === 'string' && (stages as readonly string[]).includes(value)) return value as Stage;
  throw new Error(
    `Unknown stage ${JSON.stringify(value)}: pass -c stage=dev or -c stage=prod (default: dev, from cdk.json).`,
  );
}
