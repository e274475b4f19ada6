/**
 * The local stream reader does for the relay what Lambda's stream mapping does with
 * ReportBatchItemFailures: after the relay reports a record, it hands that record and every one
 * after it again, and never the records before it. A reader of its own on the shared stack's table
 * (DynamoDB Local's real stream), with a relay of the test's own that refuses one record once.
 */

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { type StreamReaderOptions, startStreamReader } from '../../infra/local/streams.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { eventWrite, newEvent } from '../../shared/events/event.ts';
import { itemOfRecord } from '../../shared/events/outbox.ts';
import { eventually } from '../support/eventually.ts';
import { localInfo, useLocalEnvironment } from '../support/stack.ts';

/** A stream reader of the test's own on the shared stack's table, polling every 20 ms. */
const readerOf = (options: Pick<StreamReaderOptions, 'relay' | 'checkpointFile' | 'onNotice'>) =>
  startStreamReader({
    endpoint: localInfo.endpoints.dynamodb,
    region: localInfo.region,
    credentials: localInfo.aws_credentials,
    table: localInfo.table,
    pollMs: 20,
    ...options,
  });

/** The stored event's id a record carries, if it is one. */
const eventIdOf = (record: DynamoDBRecord) =>
  (itemOfRecord(record as never).detail as { id?: string } | undefined)?.id ?? '';

describe('the local stream reader', () => {
  it('hands again from the record the relay reports, and never the ones before it', async () => {
    useLocalEnvironment();
    const deps = makeDeps();
    // Five events stored in one transaction, of a type no rule takes and an account nobody has.
    // Their data is not empty: DynamoDB Local's stream gives an empty map back untyped ({} for {"M":{}}),
    // which no reader of the stream can unmarshall.
    const at = new Date();
    const events = Array.from({ length: 5 }, (_, index) =>
      newEvent(
        { type: 'local.stream_test', developerId: 990_000_000 + process.pid, test: true, data: { index } },
        at,
      ),
    );
    const ids = events.map((event) => event.id);
    /** The five in the stream's order, as first handed (one call or several: a busy reader splits them). */
    const order: string[] = [];
    /** Per relay call after the refusal: its first record, and the five it carried in order. */
    const after: { first: string; ours: string[] }[] = [];
    /** The record refused once: the third of the five. */
    let refused: string | undefined;
    const taken = new Set<string>();
    const reader = await readerOf({
      relay: async (event): Promise<DynamoDBBatchResponse> => {
        const handed = event.Records.map(eventIdOf);
        const ours = handed.filter((id) => ids.includes(id));
        if (ours.length === 0) return { batchItemFailures: [] };
        if (refused !== undefined) {
          after.push({ first: handed[0] ?? '', ours });
          for (const id of handed) taken.add(id);
          return { batchItemFailures: [] };
        }
        for (const id of ours) if (!order.includes(id)) order.push(id);
        if (order.length < 3) {
          for (const id of handed) taken.add(id);
          return { batchItemFailures: [] };
        }
        refused = order[2] as string;
        const position = handed.indexOf(refused);
        for (const id of handed.slice(0, position)) taken.add(id);
        const itemIdentifier = String(event.Records[position]?.dynamodb?.SequenceNumber);
        return { batchItemFailures: [{ itemIdentifier }] };
      },
    });
    try {
      await deps.db.send(
        new TransactWriteCommand({ TransactItems: events.map((event) => eventWrite(deps.table, event)) }),
      );
      await eventually(
        'every record to be taken',
        () => (ids.every((id) => taken.has(id)) ? true : undefined),
        {
          timeout: 20_000,
          interval: 20,
        },
      );
    } finally {
      await reader.stop();
    }

    expect(ids.filter((id) => !taken.has(id))).toEqual([]);
    expect(refused).toBeDefined();
    // The next call starts at the refused record, and carries it and the ones after it, once.
    expect(after[0]?.first).toBe(refused);
    const handedAgain = after.flatMap((call) => call.ours);
    expect(handedAgain.slice(0, 1)).toEqual([refused]);
    expect(new Set(handedAgain).size).toBe(handedAgain.length);
    expect([...order.slice(0, 3), ...handedAgain.slice(1)].sort()).toEqual([...ids].sort());
    // The two before it were taken and are never handed again.
    for (const id of order.slice(0, 2)) expect(handedAgain).not.toContain(id);
  }, 40_000);

  it('hands a record holding empty maps whole (DynamoDB Local gives them back untyped)', async () => {
    useLocalEnvironment();
    const deps = makeDeps();
    const event = newEvent(
      {
        type: 'local.stream_test',
        developerId: 990_000_000 + process.pid,
        test: true,
        data: { metadata: {}, nested: { list: [{}], again: {} } },
      },
      new Date(),
    );
    let handed: Record<string, unknown> | undefined;
    const reader = await readerOf({
      relay: async (batch): Promise<DynamoDBBatchResponse> => {
        for (const record of batch.Records)
          if (eventIdOf(record) === event.id) handed = itemOfRecord(record as never);
        return { batchItemFailures: [] };
      },
    });
    try {
      await deps.db.send(new TransactWriteCommand({ TransactItems: [eventWrite(deps.table, event)] }));
      await eventually('the record to be handed', () => handed, { timeout: 20_000, interval: 20 });
    } finally {
      await reader.stop();
    }
    expect((handed?.detail as { data?: unknown } | undefined)?.data).toEqual({
      metadata: {},
      nested: { list: [{}], again: {} },
    });
  }, 40_000);

  it('starts over a torn checkpoint file, and writes it whole', async () => {
    useLocalEnvironment();
    const deps = makeDeps();
    const folder = mkdtempSync(join(tmpdir(), 'cobro-checkpoints-'));
    const checkpointFile = join(folder, 'stream-checkpoints.json');
    // What a kill -9 in the middle of an in-place write left.
    writeFileSync(checkpointFile, '{"shardId-0000');
    const notices: string[] = [];
    const event = newEvent(
      { type: 'local.stream_test', developerId: 990_000_000 + process.pid, test: true, data: { torn: true } },
      new Date(),
    );
    let handed = false;
    const reader = await readerOf({
      checkpointFile,
      onNotice: (message) => notices.push(message),
      relay: async (batch): Promise<DynamoDBBatchResponse> => {
        if (batch.Records.some((record) => eventIdOf(record) === event.id)) handed = true;
        return { batchItemFailures: [] };
      },
    });
    try {
      await deps.db.send(new TransactWriteCommand({ TransactItems: [eventWrite(deps.table, event)] }));
      await eventually('the record to be handed', () => (handed ? true : undefined), {
        timeout: 20_000,
        interval: 20,
      });
    } finally {
      await reader.stop();
    }
    const saved = readFileSync(checkpointFile, 'utf8');
    rmSync(folder, { recursive: true, force: true, maxRetries: 3 });
    expect(handed).toBe(true);
    expect(Object.keys(JSON.parse(saved) as object).length).toBeGreaterThan(0);
    expect(notices.join('\n')).toContain('could not be read');
  }, 40_000);
});
