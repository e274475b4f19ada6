/**
 * An account's audit log (docs/design.md#team-sign-in): one entry per change made in the dashboard
 * (and per user change from the command line): who (the user's id and e-mail at the time), what
 * (the action), which record, in which mode, when, and from which address. Entries are only ever
 * put, each under a new key that sorts by time: nothing in cobro updates or deletes one, so the log
 * reads newest first and cannot be rewritten from the dashboard or the API.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Mode } from '../core/account.ts';
import { randomToken } from '../core/ids.ts';
import type { Deps } from '../db/deps.ts';
import { queryEach, recordOf } from '../db/items.ts';
import { failedConditions, named, transactNamed } from '../db/transact.ts';
import { teamKeys } from './keys.ts';
import type { Actor } from './users.ts';

export interface AuditEntry {
  developer_id: number;
  /** Unique with `at`: entries put in the same millisecond keep apart. */
  id: string;
  at: string;
  actor_id: string;
  actor_email: string;
  /** What was done: the dashboard action's name, such as `refund.create` or `user.invite`. */
  action: string;
  /** The record it was done to (a charge, a subscription, a user …), when it names one. */
  record?: string;
  /**
   * What the record's id alone would not tell a reader later: a user's e-mail address and role
   * (the user may be removed since). Never a secret.
   */
  detail?: string;
  /** The mode the dashboard was in (absent for changes to the account's team). */
  mode?: Mode;
  /** The client's address as the gateway saw the connection; `cli` from the command line. */
  address: string;
}

/**
 * Appends one entry. With `once` (a submission's own key, as a refund form's idempotency key), the
 * entry is written together with a mark of that key, and not again when the same submission is sent
 * a second time: one entry for one thing done.
 */
export async function audit(
  deps: Deps,
  input: {
    developerId: number;
    actor: Actor;
    action: string;
    record?: string;
    detail?: string;
    mode?: Mode;
    address: string;
    once?: string;
  },
): Promise<AuditEntry | undefined> {
  const entry: AuditEntry = {
    developer_id: input.developerId,
    id: randomToken(12),
    at: deps.clock().toISOString(),
    actor_id: input.actor.user_id,
    actor_email: input.actor.email,
    action: input.action,
    ...(input.record ? { record: input.record } : {}),
    ...(input.detail ? { detail: input.detail } : {}),
    ...(input.mode ? { mode: input.mode } : {}),
    address: input.address,
  };
  const put = {
    TableName: deps.table,
    Item: { ...teamKeys.audit(entry.developer_id, entry.at, entry.id), entity: 'audit_entry', ...entry },
    ConditionExpression: 'attribute_not_exists(pk)',
  };
  if (!input.once) {
    await deps.db.send(new PutCommand(put));
    return entry;
  }
  const items = [
    ...named('once', {
      Put: {
        TableName: deps.table,
        Item: {
          ...teamKeys.auditOnce(entry.developer_id, entry.action, input.once),
          entity: 'audit_once',
          at: entry.at,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    }),
    ...named('entry', { Put: put }),
  ];
  try {
    await transactNamed(deps, items);
  } catch (error) {
    if (failedConditions(error, items).has('once')) return undefined;
    throw error;
  }
  return entry;
}

/** Entries per page of the audit log. */
export const auditPageSize = 50;

/** One page of the log, newest first, and the cursor (`<at>#<id>` of its last entry) of the next, if any. */
export async function auditPage(
  deps: Deps,
  developerId: number,
  before?: string,
): Promise<{ entries: AuditEntry[]; next?: string }> {
  const log = teamKeys.auditLog(developerId);
  const entries: AuditEntry[] = [];
  let more = false;
  await queryEach(
    deps,
    {
      KeyConditionExpression: before
        ? 'pk = :pk AND sk BETWEEN :prefix AND :before'
        : 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: {
        ':pk': log.partition,
        ':prefix': log.prefix,
        ...(before ? { ':before': `${log.prefix}${before}` } : {}),
      },
      ScanIndexForward: false,
    },
    (item) => {
      const entry = recordOf<AuditEntry>(item);
      // BETWEEN includes the cursor's own entry: skipped.
      if (before && `${entry.at}#${entry.id}` === before) return true;
      if (entries.length === auditPageSize) {
        more = true;
        return false;
      }
      entries.push(entry);
      return true;
    },
    () => auditPageSize + 2,
  );
  const last = entries.at(-1);
  return { entries, ...(more && last ? { next: `${last.at}#${last.id}` } : {}) };
}
