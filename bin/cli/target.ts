/** Where the operator CLI works: the running local stack, or a deployed table (TABLE_NAME). */
import { faultsEnvironment, localEnvironment, processAlive, readLocalInfo } from '../../infra/local/info.ts';
import { envNames } from '../../shared/core/config.ts';

/**
 * Points the SDK at the local stack recorded in local.json, once it is seen to be running, and the
 * simulated acquirer at that stack's faults (its control server): a `billing run` or `payouts run`
 * calls the acquirer in this process, and must meet the faults a test or the soak armed there.
 */
export async function target(stateDir: string | undefined): Promise<void> {
  // Only the stack's local.json points at its faults, never a variable left in the shell: against a
  // deployed table no fault is possible, and a local stack's are its own.
  delete process.env[envNames.faultsUrl];
  delete process.env[envNames.faultsToken];
  if (process.env[envNames.table]) return; // a deployed stage: the SDK's own configuration applies
  const info = readLocalInfo(stateDir);
  // local.json may outlive its stack (a kill -9): never write into whatever now listens on its ports.
  const probe = () =>
    fetch(info.health_url, { signal: AbortSignal.timeout(10_000) }).then(
      (response) => response.status,
      () => 0,
    );
  let status = await probe();
  // /health gives DynamoDB 1 s: on a busy machine ask again before calling the store dead.
  for (let retry = 0; status === 503 && retry < 2; retry++) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    status = await probe();
  }
  if (status === 503)
    throw new Error(
      `the local stack at ${info.api_url} answers but its DynamoDB Local does not (/health 503): see the npm start output`,
    );
  if (status !== 200) throw new Error(`no local stack answers at ${info.api_url}: start it with npm start`);
  // The process local.json names must be alive (another stack may have taken the old port since).
  if (info.pid !== undefined && !processAlive(info.pid))
    throw new Error(
      `no local stack answers at ${info.api_url} (its process ${info.pid} is gone): start it with npm start`,
    );
  Object.assign(process.env, localEnvironment(info), faultsEnvironment(info));
}
