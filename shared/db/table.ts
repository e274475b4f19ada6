/**
 * The single table's shape, read by the CDK app and by the local stack's table creation, so the two
 * can never drift.
 */
export const tableDefinition = {
  partitionKey: 'pk',
  sortKey: 'sk',
  /** Items with this attribute (epoch seconds) are removed by DynamoDB TTL. */
  ttlAttribute: 'expires_at',
  /**
   * The table's change stream carries new items only: the outbox relay reads stored events from it
   * (shared/events/outbox.ts), so an event reaches the bus exactly when its transaction committed.
   */
  streamView: 'NEW_IMAGE',
  globalSecondaryIndexes: [
    /** Per account and mode, newest first: lists of a resource. */
    { indexName: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
    /** Lookups by a secondary value (e-mail, charge, plan) within an account and mode. */
    { indexName: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
    /** Per customer, newest first: a customer's charges and subscriptions (sparse: those with one). */
    { indexName: 'gsi3', partitionKey: 'gsi3pk', sortKey: 'gsi3sk' },
  ],
} as const;
