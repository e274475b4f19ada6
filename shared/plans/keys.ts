/** The keys of plans and of their counted list. */
import type { Mode } from '../core/account.ts';
import { countedListKeys, type ItemKey, scopePrefix } from '../db/keys.ts';

const list = countedListKeys('PLANS', 'PLAN');

export const planKeys = {
  /** A plan, by its key, in the account and mode that own it: another account's id finds nothing. */
  plan: (developerId: number, mode: Mode, planId: string): ItemKey => ({
    pk: `${scopePrefix(developerId, mode)}#PLAN#${planId}`,
    sk: 'PLAN',
  }),
  inList: list.inList,
  count: list.count,
  listTag: list.tag,
};
