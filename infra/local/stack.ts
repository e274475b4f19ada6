/**
 * The whole service on loopback with no AWS account (D1): DynamoDB Local, the S3 and SES emulators,
 * the local event bus and the gateway, wired through the AWS SDK's standard endpoint variables only.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import S3rver from '@20minutes/s3rver';
import sesEmulator from 'aws-ses-v2-local';

// The package is CommonJS with a default export: Node's ESM loader puts it behind `.default`,
// a bundler-style loader (vitest) hands it over directly.
type StartSes = typeof sesEmulator.default;
const sesModule = sesEmulator as unknown as StartSes | { default: StartSes };
const startSesEmulator: StartSes = typeof sesModule === 'function' ? sesModule : sesModule.default;

import type { AccountCredentials } from '../../shared/accounts/repository.ts';
import { envNames } from '../../shared/config.ts';
import { ensureTable, startDynamo } from './dynamodb.ts';
import { type Delivery, type LocalEventBus, startEventBus } from './event-bus.ts';
import { type LocalGateway, startGateway } from './gateway.ts';
import { onFreePort, portIsFree } from './ports.ts';

export const projectRoot = resolve(import.meta.dirname, '../..');

export const defaultPorts = { api: 3000, dynamodb: 8000, s3: 4569, ses: 8005, eventbridge: 4010 } as const;

/** What `.cobro/local.json` holds: enough for the CLI and tests to find the running stack. */
export interface LocalInfo {
  api_url: string;
  checkout_url: string;
  health_url: string;
  mail_inbox_url: string;
  region: string;
  table: string;
  event_bus: string;
  media_bucket: string;
  mail_from: string;
  ports: { api: number; dynamodb: number; s3: number; ses: number; eventbridge: number };
  endpoints: { dynamodb: string; s3: string; ses: string; eventbridge: string };
  /** Signs local bearer tokens; kept so tokens survive a restart. Local only: .cobro is git-ignored. */
  token_secret: string;
  /** Keys the fingerprints of idempotent requests (FINGERPRINT_SECRET); local only, like token_secret. */
  fingerprint_secret: string;
  demo?: DemoAccount;
}

/** The demo account's credentials, as `accounts create` prints them. */
export type DemoAccount = AccountCredentials;

export class PortInUse extends Error {
  readonly port: number;
  constructor(port: number) {
    super(`port ${port} is already in use: stop what runs there, or start with PORT=<other port> npm start`);
    this.port = port;
  }
}

/** The environment handler code sees, locally: only names the functions also get in AWS. */
export function localEnvironment(info: LocalInfo): Record<string, string> {
  return {
    AWS_REGION: info.region,
    AWS_ACCESS_KEY_ID: 'S3RVER',
    AWS_SECRET_ACCESS_KEY: 'S3RVER',
    AWS_EC2_METADATA_DISABLED: 'true',
    AWS_ENDPOINT_URL_DYNAMODB: info.endpoints.dynamodb,
    AWS_ENDPOINT_URL_S3: info.endpoints.s3,
    AWS_ENDPOINT_URL_SES: info.endpoints.ses,
    AWS_ENDPOINT_URL_SESV2: info.endpoints.ses,
    AWS_ENDPOINT_URL_EVENTBRIDGE: info.endpoints.eventbridge,
    [envNames.table]: info.table,
    [envNames.eventBus]: info.event_bus,
    [envNames.mediaBucket]: info.media_bucket,
    [envNames.mailFrom]: info.mail_from,
    [envNames.tokenSecret]: info.token_secret,
    [envNames.fingerprintSecret]: info.fingerprint_secret,
    [envNames.publicBaseUrl]: info.api_url,
    POWERTOOLS_LOG_LEVEL: process.env.POWERTOOLS_LOG_LEVEL ?? 'WARN',
  };
}

export interface StartOptions {
  /** API port; 0 picks a free one. A busy fixed port is an error (PortInUse). */
  port: number;
  /** Where local.json and the data live. @default <project>/.cobro */
  stateDir?: string;
  /** Keep nothing on disk (DynamoDB in memory, S3 in a temporary folder). @default false */
  inMemory?: boolean;
  /** Called after each API request (access log). */
  onRequest?: Parameters<typeof startGateway>[0]['onRequest'];
  onDelivery?: (delivery: Delivery) => void;
}

export interface LocalStack {
  info: LocalInfo;
  infoPath: string;
  gateway: LocalGateway;
  bus: LocalEventBus;
  stop(): Promise<void>;
}

function readInfo(path: string): Partial<LocalInfo> {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Partial<LocalInfo>;
  } catch {
    return {};
  }
}

/** Reads `.cobro/local.json` of a running stack. */
export function readLocalInfo(stateDir = join(projectRoot, '.cobro')): LocalInfo {
  const path = join(stateDir, 'local.json');
  if (!existsSync(path)) throw new Error(`no local stack found (${path} is missing): run npm start first`);
  return JSON.parse(readFileSync(path, 'utf8')) as LocalInfo;
}

export function writeLocalInfo(stateDir: string, info: LocalInfo): string {
  const path = join(stateDir, 'local.json');
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(info, null, 2)}\n`, { mode: 0o600 });
  return path;
}

/** Starts every part; on any failure stops what already started. */
export async function startLocalStack(options: StartOptions): Promise<LocalStack> {
  const stateDir = resolve(options.stateDir ?? join(projectRoot, '.cobro'));
  const inMemory = options.inMemory ?? false;
  if (options.port > 0 && !(await portIsFree(options.port))) throw new PortInUse(options.port);
  mkdirSync(stateDir, { recursive: true });
  const previous = inMemory ? {} : readInfo(join(stateDir, 'local.json'));
  const stops: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const fn of stops.reverse()) await fn().catch(() => undefined);
  };
  try {
    const ports = { api: options.port, dynamodb: 0, s3: 0, ses: 0, eventbridge: 0 };
    const dynamo = await onFreePort(defaultPorts.dynamodb, (port) => {
      ports.dynamodb = port;
      return startDynamo(port, inMemory ? null : join(stateDir, 'dynamodb'));
    });
    stops.push(dynamo.stop);

    const mediaBucket = 'cobro-local-media';
    const s3Dir = inMemory ? mkdtempSync(join(tmpdir(), 'cobro-s3-')) : join(stateDir, 's3');
    mkdirSync(s3Dir, { recursive: true });
    const s3 = await onFreePort(defaultPorts.s3, async (port) => {
      ports.s3 = port;
      const server = new S3rver({
        port,
        address: '127.0.0.1',
        silent: true,
        directory: s3Dir,
        configureBuckets: [{ name: mediaBucket, configs: [] }],
      });
      await server.run();
      return server;
    });
    stops.push(async () => {
      await s3.close();
      if (inMemory) rmSync(s3Dir, { recursive: true, force: true });
    });

    const ses: Server = await onFreePort(defaultPorts.ses, (port) => {
      ports.ses = port;
      return startSesEmulator({ host: '127.0.0.1', port });
    });
    stops.push(() => new Promise((done) => ses.close(() => done())));

    const region = 'us-east-1';
    const bus = await onFreePort(defaultPorts.eventbridge, (port) => {
      ports.eventbridge = port;
      return startEventBus(port, projectRoot, {
        region,
        ...(options.onDelivery ? { onDelivery: options.onDelivery } : {}),
      });
    });
    stops.push(bus.close);

    const partial = {
      region,
      table: 'cobro-local',
      event_bus: 'cobro-local',
      media_bucket: mediaBucket,
      mail_from: 'no-reply@cobro.local',
      endpoints: {
        dynamodb: dynamo.endpoint,
        s3: `http://127.0.0.1:${ports.s3}`,
        ses: `http://127.0.0.1:${ports.ses}`,
        eventbridge: bus.url,
      },
      token_secret: previous.token_secret ?? randomBytes(48).toString('base64url'),
      fingerprint_secret: previous.fingerprint_secret ?? randomBytes(48).toString('base64url'),
      ...(previous.demo ? { demo: previous.demo } : {}),
    };
    await ensureTable(dynamo.endpoint, partial.table);
    // Handlers read these when first imported, which happens only after this point.
    const placeholder: LocalInfo = {
      ...partial,
      api_url: '',
      checkout_url: '',
      health_url: '',
      mail_inbox_url: `${partial.endpoints.ses}/`,
      ports,
    };
    Object.assign(process.env, localEnvironment(placeholder));

    const gateway = await startGateway({
      root: projectRoot,
      port: ports.api,
      ...(options.onRequest ? { onRequest: options.onRequest } : {}),
    });
    stops.push(gateway.close);
    const apiPort = Number(new URL(gateway.url).port);
    const info: LocalInfo = {
      ...placeholder,
      api_url: gateway.url,
      checkout_url: `${gateway.url}/checkout`,
      health_url: `${gateway.url}/health`,
      ports: { ...ports, api: apiPort },
    };
    // Before any request reaches a handler: public URLs start with the gateway's own origin.
    Object.assign(process.env, localEnvironment(info));
    const infoPath = writeLocalInfo(stateDir, info);
    return { info, infoPath, gateway, bus, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
