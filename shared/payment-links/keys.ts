/** The keys of payment links: the record with its payment log, its counted list, its due entry. */
import type { Mode } from '../core/account.ts';
import { countedListKeys, duePartition, dueSlot, type ItemKey, scopePrefix } from '../db/keys.ts';

const list = countedListKeys('LINKS', 'LINK');
const linkPartition = (developerId: number, mode: Mode, linkId: string) =>
  `${scopePrefix(developerId, mode)}#LINK#${linkId}`;

export const linkKeys = {
  /** A payment link; its payment log entries share its partition (one Query reads both). */
  link: (developerId: number, mode: Mode, linkId: string): ItemKey => ({
    pk: linkPartition(developerId, mode, linkId),
    sk: 'LINK',
  }),
  log: (developerId: number, mode: Mode, linkId: string, at: string, logId: string): ItemKey => ({
    pk: linkPartition(developerId, mode, linkId),
    sk: `LOG#${at}#${logId}`,
  }),
  logPrefix: 'LOG#',
  inList: list.inList,
  count: list.count,
  listTag: list.tag,
  /** A recurring payment link's next step (a period due or a `defaulter` deadline), in the link due index. */
  due: (linkId: string, dueAt: string): ItemKey => {
    const { partition, sort } = dueSlot('LINK', linkId, dueAt);
    return { pk: partition, sk: sort };
  },
  duePartition: (shard: number) => duePartition('LINK', shard),
};
