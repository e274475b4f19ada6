/**
 * The local stack's event pipeline as tests wait on it, through its control server (see
 * infra/local/pipeline.ts): "nothing more arrived" is asserted once the pipeline is drained, never
 * after a pause.
 */

import type { LocalInfo } from '../../infra/local/info.ts';
import type { PipelineState } from '../../infra/local/pipeline.ts';
import { eventually } from './eventually.ts';

type Control = Pick<LocalInfo, 'control_url' | 'control_token'>;

async function control(info: Control, path: string, init: RequestInit = {}): Promise<Response> {
  if (!info.control_url || !info.control_token) throw new Error('this stack has no control server');
  return fetch(`${info.control_url}${path}`, {
    ...init,
    headers: { Authorization: `Bearer ${info.control_token}`, 'Content-Type': 'application/json' },
  });
}

/**
 * Waits (up to `timeoutMs`) until everything the stack stored so far for the account `developerId`,
 * and all that caused in turn (events to their rules' targets, webhook tasks to their receivers,
 * e-mails to the SES emulator), has gone through the pipeline; fails otherwise.
 */
export async function pipelineDrained(info: Control, developerId: number, timeoutMs = 30_000): Promise<void> {
  const answer = await control(info, '/pipeline/drain', {
    method: 'POST',
    body: JSON.stringify({ developer_id: developerId, timeout_ms: timeoutMs }),
  });
  if (answer.status !== 200) throw new Error(`the pipeline was not drained: ${await answer.text()}`);
}

/** What the pipeline did so far. */
export async function pipelineState(info: Control): Promise<PipelineState> {
  const answer = await control(info, '/pipeline');
  if (answer.status !== 200)
    throw new Error(`GET /pipeline answered ${answer.status}: ${await answer.text()}`);
  return (await answer.json()) as PipelineState;
}

/**
 * Waits (up to `timeoutMs`) until the relay has failed more than `failures` times: while the bus is
 * down, the outbox has tried and been refused since then.
 */
export async function relayFailedSince(info: Control, failures: number, timeoutMs = 15_000): Promise<void> {
  await eventually(
    'the relay to fail again',
    async () => ((await pipelineState(info)).relay_failures > failures ? true : undefined),
    { timeout: timeoutMs, interval: 20 },
  );
}
