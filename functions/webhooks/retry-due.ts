/** Scheduled every minute: hands the webhook tasks due now to the delivery function. */

import { observed } from '../../shared/core/invocation.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { busPublisher } from '../../shared/events/publish.ts';
import { handDueTasks } from '../../shared/webhooks/sweep.ts';

const deps = { ...makeDeps(), bus: busPublisher() };

export const handler = observed(
  async (): Promise<{ handed: number }> => ({
    handed: await handDueTasks(deps, deps.clock()),
  }),
);
