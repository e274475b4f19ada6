/**
 * How a delivery task reaches the delivery function: a bus entry of its own source and type (not a
 * cobro event: never listed, never sent to webhooks). The outbox relay makes one for each new task,
 * the retry sweep for each task due again.
 */
/** The source and detail-type of the entry. */
export const taskDue = { source: 'cobro.webhooks', type: 'webhook.task_due' } as const;

/** The detail of a taskDue entry: the task's key, and the time it is run at (the sweep's). */
export interface TaskDueDetail {
  pk: string;
  sk: string;
  at: string;
}
