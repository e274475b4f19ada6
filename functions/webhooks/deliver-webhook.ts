/** Target of `webhook.task_due`: one attempt of one delivery task (signed POST, recorded). */
import type { EventBridgeEvent } from 'aws-lambda';
import { observed } from '../../shared/core/invocation.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { runTask } from '../../shared/webhooks/delivery.ts';
import { secretBox } from '../../shared/webhooks/secrets.ts';
import type { TaskDueDetail } from '../../shared/webhooks/task-due.ts';

const deps = { ...makeDeps(), secrets: secretBox() };

export const handler = observed(async (event: EventBridgeEvent<string, TaskDueDetail>): Promise<void> => {
  const { pk, sk, at } = event.detail;
  await runTask(deps, { pk, sk }, new Date(at));
});
