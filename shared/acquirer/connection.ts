/**
 * Connections (docs/design.md#connectors): which connector each account's mode moves money through.
 * One item per account and mode, beside the account record:
 * - test mode uses the simulated acquirer unless the account connected a connector's test
 *   credentials (Stripe's `sk_test_…`);
 * - live mode starts **not connected**: nothing that moves or promises money runs in it until an
 *   operator connects it (`accounts connect`). The simulated acquirer can be connected to live mode
 *   only where the stage allows it (the local stack, never a deployed stage: see
 *   simulatedLiveAllowed), and is then labelled everywhere as moving no real money.
 * A connector's secrets (Stripe's API key and the signing secret of its webhook endpoint) are kept
 * sealed under the stage's webhook key, as webhook endpoints' secrets are, and never shown again;
 * what the operator sees is the key's hint (`sk_live_…4242`) and the Stripe account's id.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Mode } from '../core/account.ts';
import { envNames } from '../core/config.ts';
import { Invalid } from '../core/errors.ts';
import { type SecretBox, secretBox } from '../core/secret-box.ts';
import { stageSecret } from '../core/secrets.ts';
import type { Deps } from '../db/deps.ts';
import { defineEntity } from '../db/entity.ts';
import { queryEach, recordOf } from '../db/items.ts';
import type { TransactItem } from '../db/transact.ts';
import type { ConnectorName } from './acquirer.ts';
import { connectionKeys } from './keys.ts';
import { acquirerMessages } from './messages.ts';

let connectorBox: SecretBox | undefined;

/**
 * Seals and opens connectors' secrets (a Stripe key, a Stripe webhook signing secret) under the
 * stage's webhook key, as webhook endpoints' signing secrets are, for another purpose: one process's box.
 */
export function connectorSecrets(): SecretBox {
  connectorBox ??= secretBox(stageSecret(envNames.webhookKey), 'connector secrets');
  return connectorBox;
}

/** What cobro keeps of a Stripe account connected to a mode. */
export interface StripeConnection {
  /** The Stripe account (`acct_…`), as Stripe answered the key's check. */
  account_id: string;
  /** Its name as Stripe shows it (the dashboard's display name), when it has one. */
  account_name: string | null;
  /** What identifies the key to an operator: its prefix and last four characters. */
  key_hint: string;
  /** The secret or restricted key, sealed. */
  secret_key: string;
  /** The signing secret of the Stripe webhook endpoint pointed at cobro, sealed. */
  webhook_secret: string;
}

export interface ConnectionRecord {
  developer_id: number;
  mode: Mode;
  /** `none`: disconnected on purpose (the local stack then leaves it so). */
  connector: ConnectorName | 'none';
  stripe: StripeConnection | null;
  /**
   * Stripe accounts this mode was connected to before (newest first, at most retiredKept): their
   * sealed keys and signing secrets stay, never for new money, only to finish what they hold: a
   * payment the payer completed on Stripe's page after the mode was disconnected, refunds of their
   * charges, lookups, their events and their books. Absent when there were none.
   */
  retired?: StripeConnection[];
  /** Raised by every change: whatever was made from one version (a Stripe client) is not reused for the next. */
  version: number;
  connected_at: string;
  created_at: string;
  updated_at: string;
}

/** A mode's connection as cobro acts on it. */
export type Connection =
  | { connector: 'none' }
  | { connector: 'simulated' }
  | { connector: 'stripe'; record: ConnectionRecord & { stripe: StripeConnection } };

/** How many Stripe accounts a mode keeps the credentials of once disconnected from them. */
export const retiredKept = 5;

export const connectionEntity = defineEntity<ConnectionRecord>('connection', (record) => ({
  ...connectionKeys.connection(record.developer_id, record.mode),
  // Listed while it holds any Stripe account's credentials, current or retired: reconciliation
  // reads each one's books.
  ...(record.stripe || record.retired?.length
    ? connectionKeys.stripeListed(record.developer_id, record.mode)
    : {}),
}));

/**
 * The Stripe account of a mode that holds what is to be finished: the one named (current or
 * retired), else the current one, else the most recently retired; undefined when the mode never
 * had one.
 */
export function stripeCredentialsOf(
  record: ConnectionRecord | undefined,
  accountId?: string,
): StripeConnection | undefined {
  if (!record) return undefined;
  const all = [...(record.stripe ? [record.stripe] : []), ...(record.retired ?? [])];
  return (accountId ? all.find((one) => one.account_id === accountId) : undefined) ?? all[0];
}

/** Every Stripe account a mode holds the credentials of: the current one first, then the retired. */
export const stripeAccountsOf = (record: ConnectionRecord): StripeConnection[] => [
  ...(record.stripe ? [record.stripe] : []),
  ...(record.retired ?? []),
];

/**
 * Whether this stage may connect the simulated acquirer to live mode: only the local stack sets the
 * variable (infra/local/info.ts). A deployed stage never has it, so there live mode is connected to a
 * real acquirer or to nothing, and never says a payment succeeded while no money moved.
 */
export const simulatedLiveAllowed = (): boolean => process.env[envNames.simulatedLive] === 'allow';

/** The connection cobro acts on, from the stored record (absent: the mode's default). */
export function connectionOf(
  mode: Mode,
  record: ConnectionRecord | undefined,
  allowSimulatedLive = simulatedLiveAllowed(),
): Connection {
  const connector = record?.connector ?? (mode === 'test' ? 'simulated' : 'none');
  if (connector === 'stripe' && record?.stripe)
    return { connector: 'stripe', record: record as ConnectionRecord & { stripe: StripeConnection } };
  if (connector === 'simulated' && (mode === 'test' || allowSimulatedLive)) return { connector: 'simulated' };
  // Test mode always has the simulated acquirer to fall back on; live mode has nothing.
  return mode === 'test' ? { connector: 'simulated' } : { connector: 'none' };
}

/** Where a mode's connection is stored: for a read batched with others (the dashboard's session). */
export const connectionItemKey = (developerId: number, mode: Mode) =>
  connectionKeys.connection(developerId, mode);

/** The stored connection of an account's mode, if one was ever stored. */
export function getConnectionRecord(
  deps: Deps,
  developerId: number,
  mode: Mode,
): Promise<ConnectionRecord | undefined> {
  return connectionEntity.get(deps, connectionKeys.connection(developerId, mode));
}

/** The connection cobro acts on for an account's mode (one read). */
export async function getConnection(deps: Deps, developerId: number, mode: Mode): Promise<Connection> {
  return connectionOf(mode, await getConnectionRecord(deps, developerId, mode));
}

/**
 * Refuses what would move or promise money in a mode connected to nothing: the contract's 400,
 * before anything is created.
 */
export function requireConnected(connection: Connection): void {
  if (connection.connector === 'none') throw new Invalid(acquirerMessages.live_not_connected);
}

/**
 * Refuses a request that would move or promise money (a payment, a subscription, a payment link)
 * in a mode connected to nothing. Test mode always has a connector, so only live mode is read.
 */
export async function refuseUnconnected(
  deps: Deps,
  scope: { developerId: number; mode: Mode },
): Promise<void> {
  if (scope.mode === 'test') return;
  requireConnected(await getConnection(deps, scope.developerId, scope.mode));
}

/**
 * The connector a charge of a card number typed into cobro goes to (the legacy direct charge): the
 * mode must be connected, and to a connector whose card entry is cobro's own (never Stripe's, which
 * takes cards on its own page only).
 */
export async function requireCardNumbersTaken(
  deps: Deps,
  scope: { developerId: number; mode: Mode },
): Promise<void> {
  const connection = await getConnection(deps, scope.developerId, scope.mode);
  requireConnected(connection);
  if (connection.connector === 'stripe') throw new Invalid(acquirerMessages.card_numbers_not_taken);
}

/** A new connection record of `connector` (and its Stripe account) for an account's mode. */
export function newConnection(input: {
  developerId: number;
  mode: Mode;
  connector: ConnectionRecord['connector'];
  stripe?: StripeConnection | null;
  now: Date;
  previous?: ConnectionRecord;
}): ConnectionRecord {
  const at = input.now.toISOString();
  // A Stripe account left behind keeps its credentials, to finish what it holds (a newer key of the
  // same account replaces them).
  const current = input.stripe?.account_id;
  const retired = [
    ...(input.previous?.stripe ? [input.previous.stripe] : []),
    ...(input.previous?.retired ?? []),
  ]
    .filter(
      (one, index, all) =>
        one.account_id !== current && all.findIndex((other) => other.account_id === one.account_id) === index,
    )
    .slice(0, retiredKept);
  return {
    developer_id: input.developerId,
    mode: input.mode,
    connector: input.connector,
    stripe: input.stripe ?? null,
    ...(retired.length ? { retired } : {}),
    version: (input.previous?.version ?? 0) + 1,
    connected_at: at,
    created_at: input.previous?.created_at ?? at,
    updated_at: at,
  };
}

/** A transaction item storing a mode's first connection (an account just created). */
export const connectionCreate = (table: string, record: ConnectionRecord): TransactItem =>
  connectionEntity.create(table, record);

/** The connection changed meanwhile (another operator's connect): read it again and decide. */
export class ConnectionChanged extends Error {
  constructor() {
    super('the connection changed meanwhile');
  }
}

/**
 * Stores `record` in place of `previous` (none: in place of nothing), on condition that the stored
 * one is still `previous`: of two operators connecting at once, one wins, the other is told.
 */
export async function putConnection(
  deps: Deps,
  record: ConnectionRecord,
  previous: ConnectionRecord | undefined,
): Promise<void> {
  try {
    await deps.db.send(
      new PutCommand({
        TableName: deps.table,
        Item: connectionEntity.item(record),
        ConditionExpression: previous ? 'version = :version' : 'attribute_not_exists(pk)',
        ...(previous ? { ExpressionAttributeValues: { ':version': previous.version } } : {}),
      }),
    );
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) throw new ConnectionChanged();
    throw error;
  }
}

/** Every mode connected to Stripe (reconciliation reads each Stripe account's books). */
export async function listStripeConnections(deps: Deps): Promise<ConnectionRecord[]> {
  const records: ConnectionRecord[] = [];
  await queryEach(
    deps,
    {
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': connectionKeys.stripeConnectionsPartition },
    },
    (item) => records.push(recordOf<ConnectionRecord>(item)) > 0,
  );
  return records;
}

/**
 * The origin of Stripe's checkout pages, where a mode connected to Stripe sends its payers: the
 * local stand-in's locally, Stripe's own otherwise. A hosted page's CSP lets its form lead there.
 */
export function stripePageOrigin(): string {
  const standIn = process.env[envNames.stripeApiUrl];
  return standIn ? new URL(standIn).origin : 'https://checkout.stripe.com';
}

/**
 * How a hosted page of an account's mode takes a card: not at all (live mode connected to nothing),
 * in cobro's form (the simulated acquirer; in live mode labelled as moving no real money), or on
 * the acquirer's own page (Stripe).
 */
export type CardEntryView =
  | { entry: 'none' }
  | { entry: 'form'; simulatedLive: boolean }
  | { entry: 'redirect'; origin: string };

export function cardEntryOf(connection: Connection, mode: Mode): CardEntryView {
  if (connection.connector === 'none') return { entry: 'none' };
  if (connection.connector === 'stripe') return { entry: 'redirect', origin: stripePageOrigin() };
  return { entry: 'form', simulatedLive: mode === 'live' };
}

/** How an operator recognises a key without it being shown: `sk_live_…4242`. */
export function keyHint(key: string): string {
  const prefix = /^(?:sk|rk)_(?:test|live)_/.exec(key)?.[0] ?? key.slice(0, 3);
  return `${prefix}…${key.slice(-4)}`;
}
