/**
 * What Lambda's DynamoDB event source mapping does for the deployed relay, on DynamoDB Local: reads
 * the table's stream shard by shard, keeps the records the mapping's filter keeps
 * (outboxFilterPattern of the relay's entities), invokes the relay with them, and moves past a record only once the relay
 * took it. A failed batch is handed again, from the first record the relay reported, after a pause.
 * Where each shard stands is saved in `checkpointFile` (when given), so a restarted persistent stack
 * goes on where it stopped instead of sending the stream's whole history again.
 */
import { existsSync, readFileSync } from 'node:fs';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  ListStreamsCommand,
  type _Record as StreamRecord,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBBatchResponse, DynamoDBRecord } from 'aws-lambda';
import { outboxRelay } from '../../shared/api/outbox-relay.ts';
import { isOutboxRecord } from '../../shared/events/outbox.ts';
import type { LocalCredentials } from './info.ts';
import { writePrivate } from './state.ts';

export interface StreamReaderOptions {
  endpoint: string;
  region: string;
  credentials: LocalCredentials;
  table: string;
  /** Invokes the relay with a Lambda stream event; resolves with its answer. */
  relay: (event: { Records: DynamoDBRecord[] }) => Promise<unknown>;
  /** @default no checkpoint: the stream is read from its oldest record */
  checkpointFile?: string;
  /** Pause between reads of a shard with nothing new. @default 20 ms */
  pollMs?: number;
  /** Told once when the relay starts failing and once when it recovers. */
  onNotice?: (message: string) => void;
}

export interface StreamReader {
  /**
   * Resolves once every record the stream held when it was called has been relayed: each shard has
   * been read to its end by a read that began after the call (DynamoDB Local answers every record
   * past an iterator, so a read that comes back empty is at the end). While the relay fails, it waits;
   * it fails when `signal` aborts or the reader stops.
   */
  caughtUp(signal?: AbortSignal): Promise<void>;
  /** Outbox records relayed so far: of every account, or of the account whose items carry `developerId`. */
  relayed(developerId?: number): number;
  /** Relay calls that failed so far (the bus refused or could not be reached). */
  failures(): number;
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How often the stream is described for new shards (DynamoDB Local rolls them over rarely). */
const shardScanMs = 1_000;

/** Lambda's record shape: the SDK gives the creation time as a Date, Lambda as epoch seconds. */
/**
 * An attribute value as DynamoDB writes it. DynamoDB Local's stream gives an empty map back untyped
 * (`{}` for `{"M":{}}`), which no reader can unmarshall: a record holding one would stop the relay
 * for good. Untyped empty values are maps again, at any depth.
 */
export function typedValue(value: unknown): unknown {
  if (!value || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return { M: {} };
  const typed = value as { M?: Record<string, unknown>; L?: unknown[] };
  if (typed.M) return { M: typedImage(typed.M) };
  if (typed.L) return { L: typed.L.map(typedValue) };
  return value;
}

const typedImage = (image: Record<string, unknown> | undefined) =>
  image && Object.fromEntries(Object.entries(image).map(([name, value]) => [name, typedValue(value)]));

function lambdaRecord(record: StreamRecord, streamArn: string, region: string): DynamoDBRecord {
  const { ApproximateCreationDateTime: created, ...stream } = record.dynamodb ?? {};
  const rest = {
    ...stream,
    ...(stream.NewImage ? { NewImage: typedImage(stream.NewImage as Record<string, unknown>) } : {}),
    ...(stream.OldImage ? { OldImage: typedImage(stream.OldImage as Record<string, unknown>) } : {}),
  };
  return {
    eventID: record.eventID,
    eventName: record.eventName,
    eventVersion: record.eventVersion,
    eventSource: 'aws:dynamodb',
    awsRegion: region,
    eventSourceARN: streamArn,
    dynamodb: {
      ...(rest as DynamoDBRecord['dynamodb']),
      ...(created ? { ApproximateCreationDateTime: Math.floor(created.getTime() / 1000) } : {}),
    },
  } as DynamoDBRecord;
}

/** The records the relay did not take: from the first failure it reported (all of them if it threw). */
function failedFrom(answer: unknown, batch: DynamoDBRecord[]): number {
  const failures = (answer as DynamoDBBatchResponse | undefined)?.batchItemFailures ?? [];
  if (failures.length === 0) return -1;
  const positions = failures.map((failure) =>
    batch.findIndex((record) => record.dynamodb?.SequenceNumber === failure.itemIdentifier),
  );
  const known = positions.filter((position) => position >= 0);
  return known.length ? Math.min(...known) : 0;
}

/**
 * Where the reader stopped, per shard. A file that cannot be read as such (torn by a crash of an
 * older version that wrote it in place) is set aside: the reader starts from the oldest records
 * kept, and the events sent again are taken once by the fan-out, which stores each delivery by the
 * event's id.
 */
function readCheckpoints(
  file: string | undefined,
  notice: (message: string) => void,
): Record<string, string> {
  if (!file || !existsSync(file)) return {};
  try {
    const read = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    if (read && typeof read === 'object' && !Array.isArray(read)) return read as Record<string, string>;
  } catch {
    // unreadable: as below
  }
  notice(`the stream checkpoints in ${file} could not be read; reading the stream from its oldest records`);
  return {};
}

export async function startStreamReader(options: StreamReaderOptions): Promise<StreamReader> {
  const client = new DynamoDBStreamsClient({
    endpoint: options.endpoint,
    region: options.region,
    credentials: {
      accessKeyId: options.credentials.access_key_id,
      secretAccessKey: options.credentials.secret_access_key,
    },
    // Whatever holds the port (a DynamoDB Local being restarted, or another process) may never answer.
    requestHandler: { connectionTimeout: 2_000, requestTimeout: 5_000 },
  });
  const pollMs = options.pollMs ?? 20;
  const notice = options.onNotice ?? (() => undefined);
  const checkpoints = readCheckpoints(options.checkpointFile, notice);
  // Replaced in one step (a temporary file renamed over it): a kill -9 mid-write leaves the old one.
  const save = () => {
    if (options.checkpointFile) writePrivate(options.checkpointFile, checkpoints);
  };
  const streams = await client.send(new ListStreamsCommand({ TableName: options.table }));
  const streamArn = streams.Streams?.[0]?.StreamArn;
  if (!streamArn) throw new Error(`table ${options.table} has no stream`);

  let running = true;
  let failing = false;
  /** Shards finished (closed and read to their end), so their children may be read. */
  const closed = new Set<string>();
  const readers = new Map<string, Promise<void>>();
  /** GetRecords calls begun so far; each shard's last one that came back empty (see caughtUp). */
  let reads = 0;
  const atEnd = new Map<string, number>();
  /** Told after each read that reached a shard's end, and when a shard is finished. */
  const progress = new Set<() => void>();
  const tell = () => {
    for (const listener of [...progress]) listener();
  };
  const relayedBy = new Map<number, number>();
  let relayedAll = 0;
  let failures = 0;
  /** Counts records the relay took, by the account their items carry. */
  const count = (taken: DynamoDBRecord[]) => {
    relayedAll += taken.length;
    for (const record of taken) {
      const owner = Number((record.dynamodb?.NewImage?.developer_id as { N?: string } | undefined)?.N);
      if (Number.isSafeInteger(owner)) relayedBy.set(owner, (relayedBy.get(owner) ?? 0) + 1);
    }
  };

  async function iteratorFor(shardId: string): Promise<string | undefined> {
    const after = checkpoints[shardId];
    const result = await client.send(
      new GetShardIteratorCommand({
        StreamArn: streamArn,
        ShardId: shardId,
        ShardIteratorType: after ? 'AFTER_SEQUENCE_NUMBER' : 'TRIM_HORIZON',
        ...(after ? { SequenceNumber: after } : {}),
      }),
    );
    return result.ShardIterator;
  }

  /** Reads one shard to its end (or until stopped), relaying as it goes. */
  async function readShard(shardId: string): Promise<void> {
    let iterator = await iteratorFor(shardId);
    let backoff = 200;
    while (running && iterator) {
      const read = ++reads;
      const page = await client.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 100 }));
      const records = page.Records ?? [];
      const batch = records.map((record) => lambdaRecord(record, streamArn as string, options.region));
      const wanted = batch.filter((record) => isOutboxRecord(record, outboxRelay.entities));
      let failedAt = -1;
      if (wanted.length > 0) {
        try {
          failedAt = failedFrom(await options.relay({ Records: wanted }), wanted);
        } catch {
          failedAt = 0;
        }
      }
      if (failedAt >= 0) {
        failures += 1;
        count(wanted.slice(0, failedAt));
        // Keep what was taken, then read again from the first record not taken.
        const taken = wanted[failedAt - 1]?.dynamodb?.SequenceNumber;
        if (taken) checkpoints[shardId] = taken;
        save();
        if (!failing) notice('the outbox relay failed (is the event bus reachable?); retrying');
        failing = true;
        await sleep(backoff);
        backoff = Math.min(backoff * 2, 5_000);
        iterator = await iteratorFor(shardId);
        continue;
      }
      count(wanted);
      if (failing) notice('the outbox relay recovered');
      failing = false;
      backoff = 200;
      const last = records.at(-1)?.dynamodb?.SequenceNumber;
      if (last) {
        checkpoints[shardId] = last;
        save();
      }
      iterator = page.NextShardIterator;
      if (records.length === 0) {
        atEnd.set(shardId, read);
        tell();
        await sleep(pollMs);
      }
    }
    if (!iterator) {
      closed.add(shardId);
      tell();
    }
  }

  /** Starts the readers of shards not read yet (parents first); answers every shard the stream has. */
  async function scan(): Promise<string[]> {
    const description = await client.send(new DescribeStreamCommand({ StreamArn: streamArn }));
    const shards = description.StreamDescription?.Shards ?? [];
    for (const shard of shards) {
      const id = shard.ShardId;
      if (!id || readers.has(id)) continue;
      const parent = shard.ParentShardId;
      if (parent && readers.has(parent) && !closed.has(parent)) continue; // parent first, in order
      readers.set(
        id,
        readShard(id).catch((error: Error) => {
          readers.delete(id); // read again on the next round
          if (running) notice(`stream reader: ${error.message}`);
        }),
      );
    }
    return shards.flatMap((shard) => (shard.ShardId ? [shard.ShardId] : []));
  }

  /** Finds shards (new ones appear as DynamoDB Local rolls them over) and starts their readers. */
  const supervisor = (async () => {
    while (running) {
      await scan().catch((error: Error) => {
        if (running) notice(`stream reader: ${error.message}`);
      });
      await sleep(shardScanMs);
    }
  })();

  return {
    async caughtUp(signal) {
      const since = reads; // a read numbered above this one began after this call
      const shards = await scan();
      await new Promise<void>((resolve, reject) => {
        const done = (error?: Error) => {
          progress.delete(check);
          signal?.removeEventListener('abort', aborted);
          if (error) reject(error);
          else resolve();
        };
        const check = () => {
          if (!running) done(new Error('the stream reader stopped'));
          else if (shards.every((id) => closed.has(id) || (atEnd.get(id) ?? 0) > since)) done();
        };
        const aborted = () => done(signal?.reason as Error);
        progress.add(check);
        signal?.addEventListener('abort', aborted, { once: true });
        if (signal?.aborted) aborted();
        else check();
      });
    },
    relayed: (developerId) => (developerId === undefined ? relayedAll : (relayedBy.get(developerId) ?? 0)),
    failures: () => failures,
    async stop() {
      running = false;
      tell(); // a caughtUp still waiting fails now
      // A read in flight ends by its timeout at the latest; stopping does not wait longer than that.
      const settled = Promise.allSettled([supervisor, ...readers.values()]);
      await Promise.race([settled, sleep(6_000)]);
      save();
      client.destroy();
    },
  };
}
