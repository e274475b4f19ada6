/**
 * The whole service on loopback with no AWS account (docs/design.md#local-stack): DynamoDB Local,
 * the S3 and SES emulators, the Secrets Manager endpoint, the local event bus and the gateway,
 * wired through the AWS SDK's standard endpoint variables only.
 */

import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { schedules } from '../../shared/api/event-rules.ts';
import { outboxRelay } from '../../shared/api/outbox-relay.ts';
import { envNames } from '../../shared/core/config.ts';
import { startControl } from './control.ts';
import { ensureTable, stopLeftoverDynamo, superviseDynamo } from './dynamodb.ts';
import { startS3, startSes } from './emulators.ts';
import { type Delivery, type LocalEventBus, startEventBus } from './event-bus.ts';
import { type LocalGateway, startGateway } from './gateway.ts';
import {
  defaultStateDir,
  faultsEnvironment,
  type LocalInfo,
  localEnvironment,
  localSecretNames,
  projectRoot,
} from './info.ts';
import { type Invoker, inProcess } from './lambda.ts';
import { acquireLock } from './lock.ts';
import { persistSentMail } from './mail.ts';
import type { LocalPipeline } from './pipeline.ts';
import { onFreePort, portIsFree } from './ports.ts';
import { localMailFrom, rehearsalAssembly } from './rehearsal/assembly.ts';
import { type Rehearsal, startRehearsal } from './rehearsal/index.ts';
import { type LocalSecretValues, startSecretsManager } from './secrets.ts';
import {
  legacyAccessKeyId,
  loadPersistentSecrets,
  makeStatePrivate,
  migrateDynamoData,
  newSecrets,
  type SecretField,
  type StackSecrets,
  savePersistentSecrets,
  writePrivate,
} from './state.ts';
import { startStreamReader } from './streams.ts';
import { newControlToken, startStripeStandIn } from './stripe/stand-in.ts';

// The S3 emulator checks signatures against its account registry, which knows only S3RVER/S3RVER:
// the stack's own key pair is registered there, and the fixed one removed.
const s3Accounts = createRequire(import.meta.url)('@20minutes/s3rver/lib/models/account.js') as {
  DUMMY_ACCOUNT: {
    createKeyPair(accessKeyId: string, secretAccessKey: string): void;
    revokeAccessKey(accessKeyId: string): void;
  };
};

/** The sent-mail page's fixed place on the API's origin (it redirects to the SES emulator's inbox). */
export const mailPagePath = '/_mail';

export const defaultPorts = {
  api: 3000,
  dynamodb: 8000,
  s3: 4569,
  ses: 8005,
  eventbridge: 4010,
  secretsmanager: 4584,
} as const;

export class PortInUse extends Error {
  readonly port: number;
  constructor(port: number) {
    super(`port ${port} is already in use: stop what runs there, or start with PORT=<other port> npm start`);
    this.port = port;
  }
}

export interface StartOptions {
  /**
   * API port. A port named here is taken or refused (PortInUse, a busy port is never left
   * silently); 0 picks a free one.
   * @default 3000 when free, otherwise one the OS picks (a notice says so)
   */
  port?: number;
  /** Where local.json and the data live. @default <project>/.cobro */
  stateDir?: string;
  /** Keep nothing on disk (DynamoDB in memory, S3 in a temporary folder). @default false */
  inMemory?: boolean;
  /** Called after each API request (access log). */
  onRequest?: Parameters<typeof startGateway>[0]['onRequest'];
  onDelivery?: (delivery: Delivery) => void;
  /**
   * A part died and cannot be brought back (see superviseDynamo): the stack is being stopped.
   * @default prints the message to stderr
   */
  onFatal?: (message: string) => void;
  /** A part was restarted, or is being restarted. @default prints to stderr */
  onNotice?: (message: string) => void;
  /**
   * Rehearsal mode (./rehearsal/index.ts): run the functions CDK bundled, each in its own worker
   * with the template's environment, behind IAM gates enforcing the template's policies. `outdir`
   * names an assembly folder to run (a test's deliberately broken copy); without it the CDK app is
   * synthesized, or its cached assembly reused (infra/assembly.ts).
   * @default off: the handler modules of this checkout, in this process
   */
  rehearsal?: { outdir?: string };
}

export interface LocalStack {
  info: LocalInfo;
  infoPath: string;
  gateway: LocalGateway;
  bus: LocalEventBus;
  /** Resolves once the stack stopped, whoever stopped it (a fatal error included). */
  stopped: Promise<void>;
  stop(): Promise<void>;
}

export function writeLocalInfo(stateDir: string, info: LocalInfo): string {
  const path = join(stateDir, 'local.json');
  mkdirSync(dirname(path), { recursive: true });
  writePrivate(path, info);
  return path;
}

/** Removes local.json if it still describes the stack of process `pid`. */
function removeLocalInfo(stateDir: string, pid: number): void {
  const path = join(stateDir, 'local.json');
  try {
    if ((JSON.parse(readFileSync(path, 'utf8')) as Partial<LocalInfo>).pid === pid)
      rmSync(path, { force: true });
  } catch {
    // already gone or never written
  }
}

/**
 * Sets the process umask to 077 (files 0600, folders 0700) and returns what puts the old one back.
 * A worker thread may not change it: there the files keep the mode their folder's 0700 protects.
 */
function ownerOnlyUmask(): () => void {
  try {
    const previous = process.umask(0o077);
    return () => process.umask(previous);
  } catch {
    return () => undefined;
  }
}

/** A secret's values as the Secrets Manager endpoint starts with them: the kept one, and the one it replaced. */
function secretValues(secrets: StackSecrets, field: SecretField): LocalSecretValues {
  const previous = secrets.previous?.[field];
  return previous === undefined ? { current: secrets[field] } : { current: secrets[field], previous };
}

/** Starts every part; on any failure stops what already started. */
export async function startLocalStack(options: StartOptions): Promise<LocalStack> {
  const stateDir = resolve(options.stateDir ?? defaultStateDir());
  const inMemory = options.inMemory ?? false;
  mkdirSync(stateDir, { recursive: true, mode: 0o700 });
  // Before anything else: a second stack on this folder is refused, naming the one that runs.
  const lock = acquireLock(stateDir, options.port ?? 0);
  const stops: (() => Promise<void>)[] = [async () => lock.release()];
  // Whatever the stack and its children (DynamoDB Local, the emulators) create is the owner's only:
  // DynamoDB Local names each database file after the access key id that opens it.
  const restoreUmask = ownerOnlyUmask();
  stops.push(async () => restoreUmask());
  let stopping: Promise<void> | undefined;
  let markStopped: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => {
    markStopped = resolve;
  });
  const stop = () => {
    stopping ??= (async () => {
      for (const fn of stops.reverse()) await fn().catch(() => undefined);
      markStopped();
    })();
    return stopping;
  };
  const onFatal = options.onFatal ?? ((message: string) => console.error(`cobro: ${message}`));
  const onNotice = options.onNotice ?? ((message: string) => console.error(`cobro: ${message}`));
  try {
    // First, as it may take minutes (a synth): nothing runs yet that would wait for it.
    const assembly = options.rehearsal
      ? await rehearsalAssembly(options.rehearsal.outdir, onNotice)
      : undefined;
    const askedPort = options.port;
    if (askedPort !== undefined && askedPort > 0 && !(await portIsFree(askedPort)))
      throw new PortInUse(askedPort);
    if (!makeStatePrivate(stateDir))
      onNotice(
        `${stateDir} holds files that are not cobro's: its own mode is left as it is, cobro's files in it are made owner-only`,
      );
    const region = 'us-east-1';
    // A persistent stack's secrets come from persistent.json (made on first start); an in-memory
    // run makes its own and never writes that file.
    const secrets = inMemory ? newSecrets() : loadPersistentSecrets(stateDir);
    const credentials = secrets.aws_credentials;
    const dataDir = inMemory ? null : join(stateDir, 'dynamodb');
    if (dataDir) {
      mkdirSync(dataDir, { recursive: true });
      if (migrateDynamoData(dataDir, credentials.access_key_id, region))
        onNotice(
          `moved the DynamoDB Local data stored under the old fixed key ${legacyAccessKeyId} to this stack's own key`,
        );
    }
    // A start killed with -9 may have left its Java running on these files: never two writers.
    await stopLeftoverDynamo(stateDir, dataDir, onNotice);
    const ports = { api: 0, dynamodb: 0, s3: 0, ses: 0, eventbridge: 0, secretsmanager: 0, stripe: 0 };
    const dynamo = await onFreePort(defaultPorts.dynamodb, (port) => {
      ports.dynamodb = port;
      return superviseDynamo({
        port,
        dataDir,
        credentials,
        stateDir,
        onNotice,
        onFatal: (message) => {
          onFatal(message);
          void stop();
        },
      });
    });
    stops.push(dynamo.stop);

    const mediaBucket = 'cobro-local-media';
    const s3Dir = inMemory ? mkdtempSync(join(tmpdir(), 'cobro-s3-')) : join(stateDir, 's3');
    mkdirSync(s3Dir, { recursive: true });
    s3Accounts.DUMMY_ACCOUNT.createKeyPair(credentials.access_key_id, credentials.secret_access_key);
    s3Accounts.DUMMY_ACCOUNT.revokeAccessKey(legacyAccessKeyId);
    stops.push(async () => s3Accounts.DUMMY_ACCOUNT.revokeAccessKey(credentials.access_key_id));
    const s3 = await onFreePort(defaultPorts.s3, (port) =>
      startS3({ port, directory: s3Dir, bucket: mediaBucket }),
    );
    ports.s3 = s3.port;
    stops.push(async () => {
      await s3.close();
      if (inMemory) rmSync(s3Dir, { recursive: true, force: true });
    });

    if (!inMemory) {
      const mail = persistSentMail(join(stateDir, 'ses', 'sent.jsonl'));
      stops.push(async () => mail.stop());
    }
    const ses = await onFreePort(defaultPorts.ses, startSes);
    ports.ses = ses.port;
    stops.push(ses.close);

    // Functions read their secrets from here, as they do from Secrets Manager when deployed. A
    // value put here (a rotation tried locally) is kept in persistent.json by a persistent stack.
    const fields = Object.keys(localSecretNames) as SecretField[];
    // Rehearsal: each function signs with its own key pair, known once the rehearsal starts.
    let rehearsal: Rehearsal | undefined;
    const functionKeys = new Map<string, string>();
    const secretsManager = await onFreePort(defaultPorts.secretsmanager, (port) =>
      startSecretsManager({
        port,
        region,
        credentials,
        otherCredentials: (keyId) => {
          const secret = functionKeys.get(keyId);
          return secret === undefined ? undefined : { access_key_id: keyId, secret_access_key: secret };
        },
        secrets: Object.fromEntries(
          fields.map((field) => [localSecretNames[field], secretValues(secrets, field)]),
        ),
        onPut: (name, values) => {
          const field = fields.find((one) => localSecretNames[one] === name);
          if (!field || inMemory) return;
          const kept = loadPersistentSecrets(stateDir);
          savePersistentSecrets(stateDir, {
            ...kept,
            [field]: values.current,
            previous: { ...kept.previous, [field]: values.previous },
          });
        },
      }),
    );
    ports.secretsmanager = secretsManager.port;
    stops.push(secretsManager.close);

    // Stripe's API as the Stripe connector calls it, stood in for (no network here): its objects
    // kept beside the table's in a persistent stack, so a restart keeps both books.
    const stripeControlToken = newControlToken();
    const stripe = await startStripeStandIn({
      controlToken: stripeControlToken,
      ...(inMemory ? {} : { stateFile: join(stateDir, 'stripe', 'state.json') }),
    });
    ports.stripe = Number(new URL(stripe.url).port);
    stops.push(stripe.stop);

    // What runs the functions: the checkout's handler modules here, or the rehearsal's bundles.
    const local = inProcess(projectRoot);
    const run: Invoker = (target, event, timeoutMs) =>
      rehearsal ? rehearsal.invoke(target, event, timeoutMs) : local(target, event, timeoutMs);
    const bus = await onFreePort(defaultPorts.eventbridge, (port) => {
      ports.eventbridge = port;
      return startEventBus(port, projectRoot, {
        region,
        invoke: run,
        ...(assembly
          ? {
              targetsFor: (source: string, detailType: string) =>
                rehearsal?.targetsFor(source, detailType) ?? [],
            }
          : {}),
        ...(options.onDelivery ? { onDelivery: options.onDelivery } : {}),
      });
    });
    stops.push(bus.close);

    const partial = {
      region,
      table: 'cobro-local',
      event_bus: 'cobro-local',
      media_bucket: mediaBucket,
      mail_from: localMailFrom,
      endpoints: {
        dynamodb: dynamo.endpoint,
        s3: `http://127.0.0.1:${ports.s3}`,
        ses: `http://127.0.0.1:${ports.ses}`,
        eventbridge: bus.url,
        secretsmanager: secretsManager.url,
      },
      aws_credentials: credentials,
      // The persistent demo account, so npm start shows the same keys again (its secrets stay out).
      ...(secrets.demo ? { demo: secrets.demo } : {}),
    };
    await ensureTable(dynamo.endpoint, partial.table, credentials);
    // Set once the gateway listens: the functions' public base URL, and the ports they may not call.
    let rehearsalInfo: LocalInfo | undefined;
    if (assembly) {
      const account = '000000000000';
      rehearsal = await startRehearsal({
        assembly,
        names: {
          region,
          account,
          table: partial.table,
          eventBus: partial.event_bus,
          mediaBucket,
          secretArn: (constructId) => {
            const field = (
              {
                TokenSecret: 'token_secret',
                FingerprintSecret: 'fingerprint_secret',
                WebhookKey: 'webhook_key',
              } as const
            )[constructId as 'TokenSecret'];
            // The ARN the local endpoint gives the secret (infra/local/secrets.ts).
            return (
              field && `arn:aws:secretsmanager:${region}:${account}:secret:${localSecretNames[field]}-local`
            );
          },
          apiUrl: () => rehearsalInfo?.api_url ?? '',
        },
        endpoints: {
          dynamodb: partial.endpoints.dynamodb,
          s3: partial.endpoints.s3,
          ses: partial.endpoints.ses,
          events: partial.endpoints.eventbridge,
          secretsmanager: partial.endpoints.secretsmanager,
        },
        stackKeyId: credentials.access_key_id,
        logDir: join(stateDir, 'rehearsal', 'logs'),
        localAllowances: () => {
          const local = rehearsalInfo ? localEnvironment(rehearsalInfo) : {};
          const gatePorts = Object.values(rehearsal?.gates ?? {}).map((url) => new URL(url).port);
          const refused = [local[envNames.webhookRefusedPorts], ...gatePorts].filter(Boolean).join(',');
          // Only what a laptop needs that AWS does not: webhooks to loopback, never to the stack
          // itself, and the test faults of the simulated acquirer.
          return {
            [envNames.webhookPrivateTargets]: local[envNames.webhookPrivateTargets] ?? 'allow',
            [envNames.webhookRefusedPorts]: refused,
            [envNames.simulatedLive]: local[envNames.simulatedLive] ?? 'allow',
            ...(local[envNames.stripeApiUrl]
              ? { [envNames.stripeApiUrl]: local[envNames.stripeApiUrl] }
              : {}),
            // `npm start` without --metrics keeps metric lines out of its output, the functions' too.
            ...(process.env.POWERTOOLS_METRICS_DISABLED
              ? { POWERTOOLS_METRICS_DISABLED: process.env.POWERTOOLS_METRICS_DISABLED }
              : {}),
            // The simulated acquirer's faults live in this process: a function asks for them here.
            ...(rehearsalInfo ? faultsEnvironment(rehearsalInfo) : {}),
          };
        },
        onDenied: ({ service, caller, request }) =>
          onNotice(
            `rehearsal: ${caller.functionId} may not ${request.action} on ${request.resource} (${service})`,
          ),
      });
      const started = rehearsal;
      stops.push(() => started.close());
      for (const key of started.credentials) {
        functionKeys.set(key.access_key_id, key.secret_access_key);
        s3Accounts.DUMMY_ACCOUNT.createKeyPair(key.access_key_id, key.secret_access_key);
      }
      stops.push(async () => {
        for (const key of started.credentials) s3Accounts.DUMMY_ACCOUNT.revokeAccessKey(key.access_key_id);
      });
    }
    // Handlers read these when first imported, which happens only after this point.
    const placeholder: LocalInfo = {
      pid: process.pid,
      in_memory: inMemory,
      ...partial,
      stripe_url: stripe.url,
      stripe_control_token: stripeControlToken,
      api_url: '',
      checkout_url: '',
      health_url: '',
      mail_inbox_url: `${partial.endpoints.ses}/`,
      ports,
    };
    Object.assign(process.env, localEnvironment(placeholder));

    // Faults of the simulated acquirer and the event pipeline's progress (tests, the ledger soak):
    // loopback only, behind a token. The pipeline joins once its stream reader runs.
    let pipeline: LocalPipeline | undefined;
    const control = await startControl(0, () => pipeline);
    stops.push(control.close);

    const startApi = (port: number) =>
      startGateway({
        root: projectRoot,
        port,
        invoke: run,
        ...(options.onRequest ? { onRequest: options.onRequest } : {}),
        localPages: { [mailPagePath]: () => placeholder.mail_inbox_url },
      });
    const gateway =
      askedPort === undefined
        ? await onFreePort(defaultPorts.api, startApi)
        : await startApi(askedPort).catch((error: NodeJS.ErrnoException) => {
            // Taken between the check above and the listen: still the same plain message.
            throw error.code === 'EADDRINUSE' ? new PortInUse(askedPort) : error;
          });
    stops.push(gateway.close);
    const apiPort = Number(new URL(gateway.url).port);
    if (askedPort === undefined && apiPort !== defaultPorts.api)
      onNotice(
        `port ${defaultPorts.api} is in use: the API listens on ${gateway.url} instead (PORT=<port> npm start names one)`,
      );
    const info: LocalInfo = {
      ...placeholder,
      control_url: control.url,
      control_token: control.token,
      api_url: gateway.url,
      checkout_url: `${gateway.url}/checkout`,
      health_url: `${gateway.url}/health`,
      mail_url: `${gateway.url}${mailPagePath}`,
      ports: { ...ports, api: apiPort },
    };
    // Before any request reaches a handler: public URLs start with the gateway's own origin.
    Object.assign(process.env, localEnvironment(info));
    rehearsalInfo = info;
    // The outbox: stored events reach the bus through the table's stream, as in AWS.
    const reader = await startStreamReader({
      endpoint: dynamo.endpoint,
      region,
      credentials,
      table: partial.table,
      relay: (event) => {
        if (!rehearsal) return run(outboxRelay.handler, event, 30_000);
        // The function the template maps the table's stream to, and none if it maps none.
        const [target] = rehearsal.template.streamTargets;
        if (!target) throw new Error('the template maps no function to the table stream');
        return rehearsal.invoke(target, event, 30_000);
      },
      ...(inMemory ? {} : { checkpointFile: join(stateDir, 'stream-checkpoint.json') }),
      onNotice,
    });
    stops.push(reader.stop);
    pipeline = { reader, bus };
    // Schedules the stack runs by itself (the webhook retry sweep); others run through the CLI.
    for (const schedule of schedules) {
      if (!schedule.localEveryMs) continue;
      // Rehearsal runs the functions the template's schedule rule targets (none: nothing runs).
      const targets = rehearsal
        ? ([...rehearsal.template.schedules].find(([name]) => name.endsWith(`-${schedule.name}`))?.[1] ?? [])
        : [schedule.target];
      let running = false;
      const timer = setInterval(() => {
        if (running) return;
        running = true;
        Promise.all(
          targets.map((target) =>
            run(target, { source: 'aws.events', 'detail-type': 'Scheduled Event' }, 60_000),
          ),
        )
          .catch((error: Error) => onNotice(`${schedule.name}: ${error.message}`))
          .finally(() => {
            running = false;
          });
      }, schedule.localEveryMs);
      stops.push(async () => clearInterval(timer));
    }
    const infoPath = writeLocalInfo(stateDir, info);
    // Runs before the lock's release (stops run in reverse): local.json never outlives the lock.
    stops.splice(1, 0, async () => removeLocalInfo(stateDir, process.pid));
    lock.update({ port: apiPort, api_url: gateway.url });
    return { info, infoPath, gateway, bus, stop, stopped };
  } catch (error) {
    await stop();
    throw error;
  }
}
