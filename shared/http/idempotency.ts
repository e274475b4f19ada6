/**
 * Idempotency-Key on every authenticated POST and PUT (docs/design.md#idempotency), as middleware: the
 * same key with the same request within 24 hours replays the first answer (`Idempotent-Replayed:
 * true`); another request under the key, or one arriving while the first still runs, is 409. Keys
 * are scoped to account and mode. Only 2xx answers are replayed; what a retry may do otherwise
 * depends on how the first run failed:
 * - a definite failure (a 4xx, a decline) releases the key: the same key runs again, as new;
 * - an answer without a definite outcome (a 5xx: the acquirer did not answer, an unexpected error)
 *   keeps the key bound to its request: the same request runs again (a money movement then finds
 *   the attempt its key is bound to and answers that attempt's outcome, shared/attempts/resume.ts),
 *   another request under the key is 409;
 * - a run that never finished (a crash) holds the key until its claim lapses, then is the same.
 *
 * One conditional PutItem claims the key before the handler runs; that condition is what makes
 * two racing requests with one key run the handler once. Not Powertools' idempotency utility:
 * with a table keyed by pk and sk it puts every record of a function under one static partition
 * key, a hot partition for the whole service; here each record sits under its own account's key.
 */
import { createHash, createHmac, randomUUID } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { accountFromAuthorizer, resolveMode } from '../core/account.ts';
import { envNames } from '../core/config.ts';
import { Conflict } from '../core/errors.ts';
import { logger } from '../core/log.ts';
import { coreMessages } from '../core/messages.ts';
import * as rules from '../core/rules.ts';
import { sealer } from '../core/seal.ts';
import { type Secret, stageSecret } from '../core/secrets.ts';
import { InvalidInput } from '../core/validation.ts';
import { type Deps, makeDeps } from '../db/deps.ts';
import { statusOf } from './errors.ts';
import { queryOf } from './event-maps.ts';
import { headerOf, idempotencyKeyPattern } from './headers.ts';
import { httpKeys } from './keys.ts';
import { httpMessages } from './messages.ts';

export const idempotencyHeader = 'Idempotency-Key';
export const replayedHeader = 'Idempotent-Replayed';

/** Seals stored answers under a key derived from the fingerprint secret (the functions' one secret here). */
const answerSealer = (secret: string) => sealer(secret, 'idempotent answers');

/** How long a key replays its answer. */
export const keyLifetimeSeconds = 24 * 60 * 60;
/** How long a claim blocks the key when its request never finishes (longer than any function runs). */
export const claimSeconds = 60;
/** Answers larger than this are not kept (an item holds 400 KB); their key is released instead. */
const maxStoredAnswerBytes = 256 * 1024; // sealed, base64 makes it a third larger

interface Claim {
  key: ReturnType<typeof httpKeys.idempotency>;
  owner: string;
  /** The fingerprint secret the request was fingerprinted with: its answer is sealed with the same. */
  secret: string;
}

interface StoredRecord {
  fingerprint: string;
  /** `retry`: the first run ended without a definite outcome; the same request may run again. */
  status: 'running' | 'done' | 'retry';
  answer?: {
    statusCode: number;
    headers: Record<string, string>;
    body: string;
    /** The body is sealed (answers stored before sealing existed are plain). */
    sealed?: boolean;
    isBase64Encoded?: boolean;
  };
}

/** Canonical JSON: object keys sorted, so `{"a":1,"b":2}` and `{"b":2,"a":1}` are the same request. */
function canonical(value: unknown): string {
  // An uploaded file by its digest: a byte-per-key object would be megabytes to sort and join.
  if (value instanceof Uint8Array) return `{"sha256":"${createHash('sha256').update(value).digest('hex')}"}`;
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** What "the same request" means: method, path and body (parsed, so spacing and key order do not count). */
export function fingerprintInput(method: string, path: string, body: unknown): string {
  const normalizedPath = path.replace(/\/+$/, '') || '/';
  return `${method} ${normalizedPath}\n${canonical(body)}`;
}

/**
 * The stored fingerprint of a request: an HMAC-SHA256 keyed with a secret, never a plain hash. A
 * body may hold a card number and CVC (the legacy charge); a plain hash of it would give the CVC
 * away in a thousand guesses to anyone who reads the table.
 */
export function fingerprint(method: string, path: string, body: unknown, secret: string): string {
  return createHmac('sha256', secret)
    .update(fingerprintInput(method, path, body))
    .digest('hex');
}

let fingerprintSecret: Secret | undefined;

/** The stage's fingerprint secret in use now, from Secrets Manager (cached; its id read on first use). */
async function fingerprintSecretInUse(): Promise<string> {
  fingerprintSecret ??= stageSecret(envNames.fingerprintSecret);
  return (await fingerprintSecret.use()).sign;
}

/**
 * The middleware. `bodyOf` gives the parsed body of the event (the request parsing middleware
 * keeps it); `deps` defaults to the function's own table, made on first use, and `secretOf` to the
 * stage's fingerprint secret, read on first use.
 */
export function idempotency(
  bodyOf: (event: APIGatewayProxyEvent) => unknown,
  depsOf: () => Deps = lazyDeps,
  secretOf: () => Promise<string> = fingerprintSecretInUse,
): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  const claims = new WeakMap<APIGatewayProxyEvent, Claim>();

  /**
   * Ends this event's claim on its key without storing an answer: `retry` keeps the key bound to
   * this request (an answer without a definite outcome: the same request may run again), otherwise
   * the key is released (a definite failure: the key is free for any request). Left as it is when
   * this fails, the claim blocks its key only until it lapses (claimSeconds).
   */
  async function endClaim(event: APIGatewayProxyEvent, retry: boolean): Promise<void> {
    const claim = claims.get(event);
    if (!claim) return;
    claims.delete(event);
    const deps = depsOf();
    const owned = {
      TableName: deps.table,
      Key: claim.key,
      ConditionExpression: '#owner = :owner',
      ExpressionAttributeValues: { ':owner': claim.owner } as Record<string, unknown>,
    };
    const sent = retry
      ? deps.db.send(
          new UpdateCommand({
            ...owned,
            UpdateExpression: 'SET #status = :retry, updated_at = :now REMOVE claimed_until',
            ExpressionAttributeNames: { '#status': 'status', '#owner': 'owner' },
            ExpressionAttributeValues: {
              ...owned.ExpressionAttributeValues,
              ':retry': 'retry',
              ':now': deps.clock().toISOString(),
            },
          }),
        )
      : deps.db.send(new DeleteCommand({ ...owned, ExpressionAttributeNames: { '#owner': 'owner' } }));
    await sent.catch((error: unknown) => {
      if (!(error instanceof ConditionalCheckFailedException)) {
        logger.error('idempotency claim was not ended', { retry, error: error as Error });
      }
    });
  }

  return {
    before: async ({ event }) => {
      if (event.httpMethod !== 'POST' && event.httpMethod !== 'PUT') return undefined;
      const idempotencyKey = headerOf(event.headers, idempotencyHeader);
      if (idempotencyKey === undefined) return undefined;
      if (!idempotencyKeyPattern.test(idempotencyKey))
        throw new InvalidInput([{ field: idempotencyHeader, rule: rules.key }]);
      const account = accountFromAuthorizer(event.requestContext.authorizer);
      const mode = resolveMode(account, queryOf(event).test);
      const deps = depsOf();
      const now = deps.clock();
      const nowSeconds = Math.floor(now.getTime() / 1000);
      const secret = await secretOf();
      const claim: Claim = {
        key: httpKeys.idempotency(account.developerId, mode, idempotencyKey),
        owner: randomUUID(),
        secret,
      };
      const print = fingerprint(event.httpMethod, event.path, bodyOf(event), secret);
      try {
        await deps.db.send(
          new PutCommand({
            TableName: deps.table,
            Item: {
              ...claim.key,
              entity: 'idempotency',
              developer_id: account.developerId,
              mode,
              owner: claim.owner,
              fingerprint: print,
              status: 'running',
              claimed_until: nowSeconds + claimSeconds,
              created_at: now.toISOString(),
              updated_at: now.toISOString(),
              expires_at: nowSeconds + keyLifetimeSeconds,
            },
            // Free, lapsed (TTL deletes lazily), claimed by a request that never finished, or left
            // for a retry of this same request.
            ConditionExpression:
              'attribute_not_exists(pk) OR expires_at < :now OR (#status = :running AND claimed_until < :now) OR (#status = :retry AND fingerprint = :print)',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: {
              ':now': nowSeconds,
              ':running': 'running',
              ':retry': 'retry',
              ':print': print,
            },
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        );
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException) || !error.Item) throw error;
        const existing = unmarshall(error.Item) as StoredRecord;
        if (existing.fingerprint !== print) throw new Conflict(httpMessages.idempotency_key_reused);
        if (existing.status !== 'done' || !existing.answer)
          throw new Conflict(coreMessages.idempotency_in_progress);
        const { sealed, ...answer } = existing.answer;
        return {
          ...answer,
          // The fingerprints matched, so the answer was sealed with the same secret.
          body: sealed ? answerSealer(secret).open(answer.body) : answer.body,
          headers: {
            ...existing.answer.headers,
            'X-Request-Id': event.requestContext.requestId,
            [replayedHeader]: 'true',
          },
        };
      }
      claims.set(event, claim);
      return undefined;
    },

    after: async ({ event, response }) => {
      const claim = claims.get(event);
      if (!claim || !response) return;
      const body = response.body ?? '';
      if (response.statusCode < 200 || response.statusCode > 299 || body.length > maxStoredAnswerBytes) {
        await endClaim(event, response.statusCode >= 500);
        return;
      }
      claims.delete(event);
      const headers = Object.fromEntries(
        Object.entries(response.headers ?? {})
          .filter(([name]) => name.toLowerCase() !== 'x-request-id')
          .map(([name, value]) => [name, String(value)]),
      );
      // Sealed: an answer may show a secret once (a webhook endpoint's), which storage must not hold.
      const answer = {
        statusCode: response.statusCode,
        headers,
        body: answerSealer(claim.secret).seal(body),
        sealed: true,
        ...(response.isBase64Encoded ? { isBase64Encoded: true } : {}),
      };
      const deps = depsOf();
      try {
        await deps.db.send(
          new UpdateCommand({
            TableName: deps.table,
            Key: claim.key,
            UpdateExpression: 'SET #status = :done, answer = :answer, updated_at = :now REMOVE claimed_until',
            ConditionExpression: '#owner = :owner',
            ExpressionAttributeNames: { '#status': 'status', '#owner': 'owner' },
            ExpressionAttributeValues: {
              ':done': 'done',
              ':answer': answer,
              ':now': deps.clock().toISOString(),
              ':owner': claim.owner,
            },
          }),
        );
      } catch (error) {
        // The work is done and committed: the caller gets its answer. Until the claim lapses a retry
        // with this key is 409; after it, the key is free again.
        logger.error('idempotent answer was not stored', { error: error as Error });
      }
    },

    onError: async ({ event, error }) => {
      const status = statusOf(error);
      await endClaim(event, status >= 500);
    },
  };
}

let sharedDeps: Deps | undefined;
function lazyDeps(): Deps {
  sharedDeps ??= makeDeps();
  return sharedDeps;
}
