/** The keys of stored events: the outbox the table's stream reads, and the events API's lists. */
import type { Mode } from '../core/account.ts';
import { type ItemKey, type ListKey, type SecondListKey, scopePrefix } from '../db/keys.ts';

export const eventKeys = {
  /** A domain event, by id: the item the stream hands to the outbox relay. */
  event: (eventId: string): ItemKey => ({ pk: `EVENT#${eventId}`, sk: 'EVENT' }),
  /** Its place in the account's event list. */
  inList: (developerId: number, mode: Mode, createdAt: string, eventId: string): ListKey => ({
    gsi1pk: `${scopePrefix(developerId, mode)}#EVENTS`,
    gsi1sk: `EVENT#${createdAt}#${eventId}`,
  }),
  /** Its place in the list of its type (`GET /v1/events/?type=`), in gsi2. */
  ofType: (
    developerId: number,
    mode: Mode,
    type: string,
    createdAt: string,
    eventId: string,
  ): SecondListKey => ({
    gsi2pk: `${scopePrefix(developerId, mode)}#EVENTS#${type}`,
    gsi2sk: `EVENT#${createdAt}#${eventId}`,
  }),
  /**
   * An internal event's place in the list of its type, in gsi2, under a partition of its own that
   * no events API query can name (those read `#EVENTS#<type>`): operator work reads it (the
   * dashboard counters' rebuild), never a merchant.
   */
  internalOfType: (
    developerId: number,
    mode: Mode,
    type: string,
    createdAt: string,
    eventId: string,
  ): SecondListKey => ({
    gsi2pk: `${scopePrefix(developerId, mode)}#INTERNAL#${type}`,
    gsi2sk: `EVENT#${createdAt}#${eventId}`,
  }),
  /** The sort-key prefix of the lists. */
  listPrefix: 'EVENT#',
};
