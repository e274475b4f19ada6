/**
 * Dashboard roles and what each may do (docs/design.md#team-sign-in). A dashboard route names the one
 * permission it needs; the router refuses it (403, nothing read or changed) to a user whose role
 * lacks it, and the navigation shows only sections the role may open.
 *
 * - `admin`: everything, including users, the audit log, API keys and connectors.
 * - `developer`: reads, plus webhooks (endpoints, secrets, redelivery), the catalog (plans,
 *   products, payment links) and the API keys page with the keys masked; no refunds, no cancels,
 *   no key rotation.
 * - `support`: reads, plus refunds, subscription cancels (and resuming one set to end) and
 *   customers' portal links.
 * - `viewer`: reads only.
 *
 * Every role reads every page that only shows what the API shows (overview, payments, customers,
 * subscriptions, catalog, webhooks, events), and keeps its own profile (password, second factor,
 * language, mode, sign-out).
 */
export const roles = ['admin', 'developer', 'support', 'viewer'] as const;
export type Role = (typeof roles)[number];

export const isRole = (value: unknown): value is Role => roles.includes(value as Role);

export const permissions = [
  /** The pages that only show: overview, payments, customers, subscriptions, catalog, webhooks, events. */
  'read',
  /** One's own profile: password, second factor, language, mode, sign-out. */
  'self',
  'refund',
  /** Cancel a subscription (at once or at its period's end) or resume one set to end. */
  'cancel',
  'portal_link',
  /** Plans, products and payment links: create, archive, delete. */
  'catalog',
  /** Webhook endpoints: create, rotate their secret, delete, redeliver. */
  'webhooks',
  /** The API keys page, the keys masked. */
  'api_keys',
  'rotate_keys',
  'users',
  'audit',
  'connectors',
] as const;
export type Permission = (typeof permissions)[number];

const grants: Record<Role, readonly Permission[]> = {
  admin: permissions,
  developer: ['read', 'self', 'catalog', 'webhooks', 'api_keys'],
  support: ['read', 'self', 'refund', 'cancel', 'portal_link'],
  viewer: ['read', 'self'],
};

/** Whether a user of `role` may do what `permission` covers. */
export const can = (role: Role, permission: Permission): boolean => grants[role].includes(permission);
