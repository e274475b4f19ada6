/**
 * The outbox relay: reads new items from the table's stream (stored events, and webhook tasks to
 * run) and puts them on the bus, in order, ten per call. When the bus refuses or cannot be reached,
 * it reports the first record not sent (ReportBatchItemFailures), so the stream hands that record
 * and the ones after it again; the records before it are not sent again by this function.
 */
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { outboxRelay } from '../../shared/api/outbox-relay.ts';
import { observed } from '../../shared/core/invocation.ts';
import { logger } from '../../shared/core/log.ts';
import {
  type EventDetail,
  eventEntity,
  eventSource,
  internalEventSource,
  triggeredEventSource,
} from '../../shared/events/event.ts';
import { countEvent } from '../../shared/events/metrics.ts';
import { isOutboxRecord, itemOfRecord, type OutboxRecord } from '../../shared/events/outbox.ts';
import { type BusPublisher, busPublisher, putEventsBatch } from '../../shared/events/publish.ts';
import { type TaskDueDetail, taskDue } from '../../shared/webhooks/task-due.ts';

/** The bus entry of a stream record: a cobro event as stored, or a task to hand over. */
function entryOf(record: OutboxRecord) {
  const item = itemOfRecord(record);
  if (item.entity === eventEntity) {
    const detail = item.detail as EventDetail<unknown>;
    // Internal events go to cobro's own rules only, test events sent on purpose to webhooks only.
    const source =
      item.internal === true
        ? internalEventSource
        : item.triggered === true
          ? triggeredEventSource
          : eventSource;
    return { source, type: detail.type, detail, time: new Date(detail.created_at) };
  }
  const detail: TaskDueDetail = { pk: String(item.pk), sk: String(item.sk), at: String(item.created_at) };
  return { source: taskDue.source, type: taskDue.type, detail };
}

/**
 * The relay onto `bus`. Chunks go in order; at the first chunk not wholly taken it stops and reports
 * that chunk's first record not taken (the first refused, or the chunk's first when the bus could
 * not be reached). Records of earlier chunks, and those before the refused one, were taken and are
 * not reported, so the stream does not hand them again.
 */
export function relay(bus: BusPublisher) {
  return async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
    const records = event.Records.filter((record) => isOutboxRecord(record, outboxRelay.entities));
    for (let start = 0; start < records.length; start += putEventsBatch) {
      const chunk = records.slice(start, start + putEventsBatch);
      let failed: number;
      const entries = chunk.map(entryOf);
      try {
        failed = await bus.send(entries);
        // Each business fact is counted once, when the bus has its event (shared/events/metrics.ts).
        for (const entry of failed >= 0 ? entries.slice(0, failed) : entries)
          if (entry.source === eventSource) countEvent(entry.detail as EventDetail<unknown>);
        if (failed >= 0) {
          logger.warn('the bus refused an entry; the stream will hand it and the ones after it again', {
            refused: start + failed,
            records: records.length,
          });
        }
      } catch (error) {
        logger.warn('the bus could not be reached; the stream will hand these records again', {
          error: error as Error,
        });
        failed = 0;
      }
      if (failed >= 0) {
        const record = chunk[failed];
        return { batchItemFailures: [{ itemIdentifier: record?.dynamodb?.SequenceNumber ?? '' }] };
      }
    }
    return { batchItemFailures: [] };
  };
}

// A batch holds many records: Lambda's request id correlates its log lines.
export const handler = observed(relay(busPublisher()), (_event, context) => context?.awsRequestId);
