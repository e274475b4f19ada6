/**
 * Payment links in the single table: the record (listed and counted in gsi1), its payment log in
 * its own partition, and its entry in the link due index (DUE#LINK#shard, by due time) that the
 * billing step reads. Every change of a link is one transaction conditioned on the version read,
 * with its due entry and, when the link starts or stops taking payments, its checkout page.
 */
import { DeleteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { linkPageCloseWrite, linkPageDelete } from '../checkout/repository.ts';
import type { Scope } from '../core/account.ts';
import type { PageRequest } from '../core/pagination.ts';
import type { Deps } from '../db/deps.ts';
import { type DueShard, dueEntries } from '../db/due.ts';
import { defineEntity } from '../db/entity.ts';
import { getRecord, recordOf } from '../db/items.ts';
import { countedList, countedPage, countUpdate } from '../db/lists.ts';
import { failedConditions, named, type TransactItem, transactNamed, transactWrite } from '../db/transact.ts';
import { linkKeys } from './keys.ts';
import type { LinkLog, PaymentLink } from './link.ts';

export const linkEntity = defineEntity<PaymentLink>('payment_link', (link) => ({
  ...linkKeys.link(link.developer_id, link.mode, link.id),
  ...linkKeys.inList(link.developer_id, link.mode, link.created_at, link.id),
}));

const linkList = (scope: Scope) =>
  countedList(linkKeys.count(scope.developerId, scope.mode), 'payment_link', linkKeys.listTag);

/** How many log entries the single view shows (the newest). */
export const shownLogs = 100;

export const linkCountUpdate = (deps: Deps, scope: Scope, by: number, now: string) =>
  countUpdate(deps, linkList(scope), scope, by, now);

/** The log entry of one payment attempt, as a transaction item. */
export function logWrite(table: string, scope: Scope, log: LinkLog): TransactItem {
  return {
    Put: {
      TableName: table,
      Item: {
        ...linkKeys.log(scope.developerId, scope.mode, log.link_id, log.created_at, log.id),
        entity: 'payment_link_log',
        developer_id: scope.developerId,
        mode: scope.mode,
        ...log,
      },
    },
  };
}

function dueEntry(table: string, link: PaymentLink): TransactItem[] {
  if (!link.due_at) return [];
  return [
    {
      Put: {
        TableName: table,
        Item: {
          ...linkKeys.due(link.id, link.due_at),
          entity: 'link_due',
          developer_id: link.developer_id,
          mode: link.mode,
          link_id: link.id,
          due_at: link.due_at,
        },
      },
    },
  ];
}

/** A payment of the page is under way (its claim holds): the change must wait. */
export class PageBusy extends Error {}

/** Stores new links (with their pages, made by the caller) and counts them, in one transaction. */
export async function storeLinks(deps: Deps, scope: Scope, links: PaymentLink[], pages: TransactItem[]) {
  await transactWrite(deps, [
    ...links.map((link) => linkEntity.create(deps.table, link)),
    ...links.flatMap((link) => dueEntry(deps.table, link)),
    ...pages,
    linkCountUpdate(deps, scope, links.length, links[0]?.created_at ?? new Date().toISOString()),
  ]);
}

export function getLink(deps: Deps, scope: Scope, id: string): Promise<PaymentLink | undefined> {
  return getRecord<PaymentLink>(deps, linkKeys.link(scope.developerId, scope.mode, id));
}

/** The link and its newest payment log entries, read at once. */
export async function getLinkWithLogs(
  deps: Deps,
  scope: Scope,
  id: string,
): Promise<{ link: PaymentLink; logs: LinkLog[] } | undefined> {
  const { pk } = linkKeys.link(scope.developerId, scope.mode, id);
  const [link, logs] = await Promise.all([
    getLink(deps, scope, id),
    deps.db.send(
      new QueryCommand({
        TableName: deps.table,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :log)',
        ExpressionAttributeValues: { ':pk': pk, ':log': linkKeys.logPrefix },
        ScanIndexForward: false,
        Limit: shownLogs,
      }),
    ),
  ]);
  if (!link) return undefined;
  return { link, logs: (logs.Items ?? []).map((item) => recordOf<LinkLog>(item)) };
}

/** A page of the account's links, newest first, with their count. */
export async function listLinks(deps: Deps, scope: Scope, page: PageRequest) {
  return countedPage<PaymentLink>(deps, linkList(scope), page);
}

/**
 * Replaces `before` with `after` (and its due entry), with the write of its page when given, in one
 * transaction conditioned on `before`'s version. False when another writer changed the link first;
 * PageBusy when the page refused because a payment holds it.
 */
export async function saveLink(
  deps: Deps,
  before: PaymentLink,
  after: PaymentLink,
  page?: TransactItem,
): Promise<boolean> {
  const items = [
    ...named('link', ...linkWrites(deps.table, before, after)),
    ...named('page', ...(page ? [page] : [])),
  ];
  try {
    await transactNamed(deps, items);
    return true;
  } catch (error) {
    const failed = failedConditions(error, items);
    if (failed.has('link')) return false;
    if (failed.has('page')) throw new PageBusy();
    throw error;
  }
}

/** The transaction items of `saveLink` for a caller that writes them in its own transaction. */
export function linkWrites(table: string, before: PaymentLink, after: PaymentLink): TransactItem[] {
  return [
    {
      Put: {
        TableName: table,
        Item: linkEntity.item(after),
        ConditionExpression: 'version = :read',
        ExpressionAttributeValues: { ':read': before.version },
      },
    },
    ...(before.due_at && before.due_at !== after.due_at
      ? [{ Delete: { TableName: table, Key: linkKeys.due(before.id, before.due_at) } }]
      : []),
    ...(before.due_at !== after.due_at ? dueEntry(table, after) : []),
  ];
}

/**
 * Deletes a link, its due entry and its page, uncounted. A page an attempt holds (a payment under
 * way) is closed instead of deleted, so that payment still ends: its approval finds the link gone
 * and is refunded at once: an approved charge is never discarded.
 */
export async function removeLink(deps: Deps, scope: Scope, link: PaymentLink, now: Date): Promise<boolean> {
  const items = (page: TransactItem) => [
    ...named('link', {
      Delete: {
        TableName: deps.table,
        Key: linkKeys.link(scope.developerId, scope.mode, link.id),
        ConditionExpression: 'version = :read',
        ExpressionAttributeValues: { ':read': link.version },
      },
    }),
    ...named('page', page),
    ...named(
      'bookkeeping',
      ...(link.due_at
        ? [{ Delete: { TableName: deps.table, Key: linkKeys.due(link.id, link.due_at) } }]
        : []),
      linkCountUpdate(deps, scope, -1, now.toISOString()),
    ),
  ];
  for (const page of [
    linkPageDelete(deps.table, link.token),
    linkPageCloseWrite(deps.table, link.token, now),
  ]) {
    const removal = items(page);
    try {
      await transactNamed(deps, removal);
      return true;
    } catch (error) {
      const failed = failedConditions(error, removal);
      if (failed.has('link')) return false;
      // Held by a payment under way: close the page instead.
      if (!failed.has('page')) throw error;
    }
  }
  return false;
}

/** What a due entry points at. */
export interface LinkDueRef {
  developer_id: number;
  mode: Scope['mode'];
  link_id: string;
  due_at: string;
}

/** Due entries at `now` (at most `limit` per shard), oldest first; of one partition when `shard` is given. */
export const dueLinks = (deps: Deps, now: Date, limit: number, shard?: DueShard) =>
  dueEntries<LinkDueRef>(deps, linkKeys.duePartition, now, limit, undefined, shard);

/** Removes a due entry that no longer matches its link. */
export async function dropStaleLinkDue(deps: Deps, ref: LinkDueRef): Promise<void> {
  await deps.db.send(
    new DeleteCommand({ TableName: deps.table, Key: linkKeys.due(ref.link_id, ref.due_at) }),
  );
}
