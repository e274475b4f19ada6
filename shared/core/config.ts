/**
 * Environment the functions read. The CDK app and the local stack both set these names; nothing
 * else differs between the two (the AWS SDK reads its endpoint variables by itself).
 */
export const envNames = {
  table: 'TABLE_NAME',
  eventBus: 'EVENT_BUS_NAME',
  mediaBucket: 'MEDIA_BUCKET',
  mailFrom: 'MAIL_FROM',
  /**
   * The secrets' ids (ARN deployed, name locally), never their values: functions read the values
   * from Secrets Manager (./secrets.ts). This one signs bearer tokens.
   */
  tokenSecret: 'TOKEN_SECRET_ID',
  /** Keys the HMAC of idempotent requests (their bodies may hold card data). */
  fingerprintSecret: 'FINGERPRINT_SECRET_ID',
  /** Encrypts webhook endpoints' signing secrets at rest (they must be read back to sign). */
  webhookKey: 'WEBHOOK_KEY_SECRET_ID',
  /**
   * `allow` lets test-mode webhook endpoints reach loopback and private addresses: set by the local
   * stack only, where a developer's laptop receives. Deployed, test endpoints are public like live ones.
   */
  webhookPrivateTargets: 'WEBHOOK_PRIVATE_TARGETS',
  /**
   * The ports of this machine no webhook may reach, comma-separated: the local stack's own services
   * (its API, DynamoDB Local, the emulators, the event bus, the control server), set by the local
   * stack only. Deployed there is no such machine to protect: the functions run elsewhere.
   */
  webhookRefusedPorts: 'WEBHOOK_REFUSED_PORTS',
  /**
   * Where a process working on the local stack apart from it (a rehearsal function, the operator
   * CLI) asks for the simulated acquirer's faults: the control server, and its token. Never set in
   * a deployed stage, nor by the CLI against a deployed table.
   */
  faultsUrl: 'COBRO_FAULTS_URL',
  faultsToken: 'COBRO_FAULTS_TOKEN',
  /**
   * `allow` lets the simulated acquirer be connected to live mode (docs/design.md#connectors): set
   * by the local stack only, which then labels live pages "simulated acquirer: no real money
   * moves". A deployed stage never has it: there live mode is connected to a real acquirer or refused.
   */
  simulatedLive: 'COBRO_SIMULATED_LIVE',
  /**
   * Where the Stripe connector sends Stripe's API calls instead of api.stripe.com: the local stack's
   * stand-in of Stripe (infra/local/stripe). Never set in a deployed stage.
   */
  stripeApiUrl: 'COBRO_STRIPE_API_URL',
  /** Where the stage is reached from outside (origin plus an optional path prefix, no trailing slash). */
  publicBaseUrl: 'PUBLIC_BASE_URL',
  /** The fallback's view of the route table (each path with its methods, JSON): it answers 405 from it. */
  routeTable: 'ROUTE_TABLE',
  /**
   * The event catalogue's type names, comma-separated, for the functions that check a webhook
   * endpoint's `events` against them: their route rows give it, so they bundle no other area.
   */
  eventTypes: 'EVENT_TYPES',
  /** The deployment stage (`dev`, `prod`): a dimension of every metric. Unset locally (`local`). */
  stage: 'COBRO_STAGE',
} as const;

/** Reads a required variable, failing loudly at cold start rather than on the first request. */
export function requireEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}
