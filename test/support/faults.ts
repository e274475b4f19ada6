/**
 * The simulated acquirer's faults in the running test stack, through its control server
 * (infra/local/control.ts). Every fault names its merchant, so suites running side by side on the
 * shared stack never hit each other's calls.
 */
import type { AcquirerFault, FaultHits } from '../../shared/acquirer/faults.ts';
import { localInfo } from './stack.ts';

type ScopedFault = AcquirerFault & { merchant: number };

async function control(method: string, query = '', body?: unknown) {
  return (await request(method, query, body)) as { faults: AcquirerFault[] };
}

async function request(method: string, query = '', body?: unknown): Promise<unknown> {
  const response = await fetch(`${localInfo.control_url}/acquirer/faults${query}`, {
    method,
    headers: { Authorization: `Bearer ${localInfo.control_token}`, 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (response.status !== 200)
    throw new Error(`control ${method} answered ${response.status}: ${await response.text()}`);
  return response.json();
}

/** Arms a fault of the stack's simulated acquirer, for one merchant. */
export const addFault = (fault: ScopedFault) => control('POST', '', fault);

/** Disarms every fault of one merchant. */
export const clearFaults = (merchant: number) => control('DELETE', `?merchant=${merchant}`);

/** The faults still armed (a `times` fault is gone once spent). */
export const armedFaults = async () => (await control('GET')).faults;

/**
 * The calls the stack's faults hit for one merchant, by who made them: `stack` for the stack's own
 * handlers, `pid N` for another process (the operator CLI), a function's name in rehearsal mode.
 */
export const faultHits = async (merchant: number) =>
  ((await request('GET', '/hits')) as { hits: (FaultHits & { caller: string })[] }).hits.filter(
    (hits) => hits.merchant === merchant,
  );

type Command = { constructor: { name: string }; input: unknown };

/**
 * The test stack's DynamoDB client with `hook` run before each command it sends: a fault injected
 * (throw) or another operation let in first (await it). The client itself is the real one.
 */
export function clientWith<Client extends { send: (...args: never[]) => unknown }>(
  client: Client,
  hook: (command: Command) => Promise<void> | void,
): Client {
  return new Proxy(client, {
    get(target, property, receiver) {
      if (property !== 'send') return Reflect.get(target, property, receiver);
      return async (command: Command, ...rest: unknown[]) => {
        await hook(command);
        return (target.send as (...args: unknown[]) => Promise<unknown>)(command, ...rest);
      };
    },
  });
}
