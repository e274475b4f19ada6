/**
 * One Lambda invocation as the logs and metrics see it: every log entry written while it runs
 * carries the function's name, its request id, whether this is the function's first invocation
 * (a cold start) and the correlation id of what it handles; the metrics counted meanwhile are
 * written when it ends, whatever the outcome.
 *
 * The correlation id follows one piece of work across functions and logs: the API Gateway request
 * id for the API (the id API Gateway answers in `x-amzn-RequestId`, and a 500's `request_id`), the
 * event's id for an EventBridge rule's target, the scheduled event's id for a run of a schedule,
 * and Lambda's request id for the stream relay (a batch of many records).
 */
import type { Context } from 'aws-lambda';
import { invocationKeys } from './log.ts';
import { publishMetrics } from './metrics.ts';

let cold = true;

/** Runs `work` as the invocation `context` with `correlationId`, then writes its metrics. */
export async function asInvocation<T>(
  context: Pick<Context, 'functionName' | 'awsRequestId'> | undefined,
  correlationId: string | undefined,
  work: () => Promise<T>,
): Promise<T> {
  const keys = {
    ...(context ? { function_name: context.functionName, function_request_id: context.awsRequestId } : {}),
    cold_start: cold,
    ...(correlationId ? { correlation_id: correlationId } : {}),
  };
  cold = false;
  try {
    return await invocationKeys.run(keys, work);
  } finally {
    publishMetrics();
  }
}

/**
 * A handler observed as above: `correlationOf` says which id of its event correlates (EventBridge's
 * `id` when left out, or Lambda's request id for an event without one).
 */
export function observed<E, R>(
  fn: (event: E, context?: Context) => Promise<R>,
  correlationOf: (event: E, context?: Context) => string | undefined = (event, context) =>
    (event as { id?: string } | undefined)?.id ?? context?.awsRequestId,
) {
  // The context is optional so that tests and the CLI may call a handler with its event alone.
  return (event: E, context?: Context): Promise<R> =>
    asInvocation(context, correlationOf(event, context), () => fn(event, context));
}
