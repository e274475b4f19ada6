/**
 * Every area of cobro, once, lowest layer first: an area may import only the areas before it in
 * this list, never one after it, which `.dependency-cruiser.cjs` reads from here. The route table,
 * the event catalogue, the event rules, the schedules and the OpenAPI document are assembled from
 * these descriptors in this order. A new area is its own folder with an `area.ts`, and one line here,
 * after the areas it imports and before every area that imports it.
 *
 * Keep each entry `xArea` on its own line, imported as `import { xArea } from '../<folder>/area.ts'`:
 * the dependency rules read this file as text.
 */
import { accountsArea } from '../accounts/area.ts';
import { attemptsArea } from '../attempts/area.ts';
import { authArea } from '../auth/area.ts';
import { chargesArea } from '../charges/area.ts';
import { checkoutArea } from '../checkout/area.ts';
import { connectorsArea } from '../connectors/area.ts';
import { customersArea } from '../customers/area.ts';
import { dashboardArea } from '../dashboard/area.ts';
import type { EventType } from '../events/event.ts';
import { ledgerArea } from '../ledger/area.ts';
import { paymentLinksArea } from '../payment-links/area.ts';
import { paymentsArea } from '../payments/area.ts';
import { payoutsArea } from '../payouts/area.ts';
import { plansArea } from '../plans/area.ts';
import { portalArea } from '../portal/area.ts';
import { productsArea } from '../products/area.ts';
import { receiptsArea } from '../receipts/area.ts';
import { refundsArea } from '../refunds/area.ts';
import { searchArea } from '../search/area.ts';
import type { Area, OfEventTypes } from '../stack/area.ts';
import { statsArea } from '../stats/area.ts';
import { subscriptionsArea } from '../subscriptions/area.ts';
import { taxesArea } from '../taxes/area.ts';
import { teamArea } from '../team/area.ts';
import { webhooksArea } from '../webhooks/area.ts';

export const areas: readonly Area<EventType<unknown>>[] = [
  accountsArea,
  authArea,
  customersArea,
  attemptsArea,
  chargesArea,
  paymentsArea,
  refundsArea,
  checkoutArea,
  payoutsArea,
  plansArea,
  taxesArea,
  productsArea,
  searchArea,
  webhooksArea,
  subscriptionsArea,
  paymentLinksArea,
  receiptsArea,
  portalArea,
  ledgerArea,
  connectorsArea,
  statsArea,
  teamArea,
  dashboardArea,
];

/** Every event type the areas publish, in the list's order, with its webhook's line. */
export const publishedEvents = areas.flatMap((area) => area.events ?? []);

/** The type names of the catalogue: what rows naming every event type are given. */
const eventTypes = publishedEvents.map(({ event }) => event.type);

/** Rows of one area, with the catalogue's type names handed in. */
export const rowsOfArea = <Row>(
  area: Area<EventType<unknown>>,
  part: (area: Area<EventType<unknown>>) => OfEventTypes<Row> | undefined,
): readonly Row[] => {
  const rows = part(area);
  return typeof rows === 'function' ? rows(eventTypes) : (rows ?? []);
};

/** Rows of every area, in the list's order, with the catalogue's type names handed in. */
export const rowsOfAreas = <Row>(part: (area: Area<EventType<unknown>>) => OfEventTypes<Row> | undefined) =>
  areas.flatMap((area) => rowsOfArea(area, part));
