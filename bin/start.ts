#!/usr/bin/env node
/**
 * `npm start`: the whole of cobro on 127.0.0.1 with no AWS account (docs/design.md#local-stack).
 *   npm start                 data kept under .cobro/ across restarts
 *   npm start -- --in-memory  a throwaway run
 *   PORT=4000 npm start       another API port (without one: 3000, or a free port if 3000 is taken)
 *   npm start -- --rehearsal  run what `cdk deploy` deploys: the bundled functions, each with the
 *                             template's environment and IAM policies (docs/design.md#rehearsal-mode)
 */
import { parseArgs } from 'node:util';
import { demoAdminLink, ensureDemoAccount, keyIsCurrent } from '../infra/local/demo.ts';
import { startLocalStack, writeLocalInfo } from '../infra/local/stack.ts';
import { loadPersistentSecrets, savePersistentSecrets } from '../infra/local/state.ts';
import { ensureStandInStripeAccount } from '../infra/local/stripe-accounts.ts';
import { getConnection } from '../shared/acquirer/connection.ts';
import { makeDeps } from '../shared/db/deps.ts';
import { partitionRuns } from '../shared/events/partitions.ts';

/** The bus entries that hand out a scheduled run's partitions (work, not events). */
const partitionTypes = new Set<string>(Object.values(partitionRuns));

const { values } = parseArgs({
  options: {
    'in-memory': { type: 'boolean', default: false },
    port: { type: 'string' },
    'state-dir': { type: 'string' },
    quiet: { type: 'boolean', default: false },
    rehearsal: { type: 'boolean', default: false },
    assembly: { type: 'string' },
    metrics: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});

if (values.help) {
  console.log(`npm start [-- options]: the whole of cobro on 127.0.0.1 with no AWS account

  --in-memory        a throwaway run: nothing kept under .cobro/
  --port N           the API port (also PORT=N); without one 3000, or a free port if 3000 is taken
  --state-dir DIR    where local.json and the data live (default COBRO_STATE_DIR, else .cobro/)
  --quiet            no access log
  --rehearsal        run what cdk deploy deploys: each function from the bundle CDK made, in its own
                     worker, with only the template's variables, its IAM policies enforced by the
                     local endpoints (synthesizes the app first when its cached assembly is stale)
  --assembly DIR     with --rehearsal: run this cloud assembly folder instead of the app's
  --metrics          print the functions' metric lines (CloudWatch embedded metric format)`);
  process.exit(0);
}
// The functions' metric lines are for CloudWatch: in a terminal they would bury everything else
// (recovery alone writes some every two seconds). Powertools Metrics reads this when it starts.
if (!values.metrics) process.env.POWERTOOLS_METRICS_DISABLED = 'true';
const rehearsal = values.rehearsal || values.assembly !== undefined;

// A port named (--port, PORT) is that port or an error; none named: 3000, or a free one if taken.
const named = values.port ?? process.env.PORT;
const port = named === undefined || named === '' ? undefined : Number(named);
if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535)) {
  console.error(`cobro: invalid port ${named}`);
  process.exit(2);
}

const started = performance.now();
// Registered before anything starts: a signal during startup must still take Java down with us.
let stack: Awaited<ReturnType<typeof startLocalStack>> | undefined;
let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  if (!stack) process.exit(130); // still starting: the exit hook kills DynamoDB Local
  console.log(`\ncobro: ${signal}, stopping`);
  await stack.stop();
  process.exit(0);
}
let fatal = false;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
  process.on(signal, () => void shutdown(signal));

try {
  stack = await startLocalStack({
    ...(port === undefined ? {} : { port }),
    inMemory: values['in-memory'],
    ...(rehearsal ? { rehearsal: values.assembly ? { outdir: values.assembly } : {} } : {}),
    ...(values['state-dir'] ? { stateDir: values['state-dir'] } : {}),
    // A part that died for good: the stack stops itself; say which part and why, and exit 1.
    onFatal: (message) => {
      fatal = true;
      console.error(`cobro: ${message}`);
    },
    onNotice: (message) => console.error(`cobro: ${message}`),
    ...(values.quiet
      ? {}
      : {
          // The route's template, not the path: paths carry checkout, portal and receipt tokens.
          onRequest: ({ method, resource, status, ms }) =>
            console.log(`${method} ${resource} ${status} ${ms.toFixed(1)} ms`),
          onDelivery: (d) => {
            // Recovery hands out its partitions every two seconds: only a failed one is worth a line.
            if (d.ok && partitionTypes.has(d.detailType)) return;
            console.log(
              `event ${d.detailType} -> ${d.target}: ${d.ok ? 'delivered' : `failed (${d.error})`}`,
            );
          },
        }),
  });
} catch (error) {
  // Setup problems (a busy port, no Java) are told plainly; DEBUG=cobro adds the stack.
  const detail = process.env.DEBUG?.includes('cobro') ? (error as Error).stack : (error as Error).message;
  console.error(`cobro: ${detail}`);
  process.exit(1);
}

if (!stack) throw new Error('unreachable: startup either returned a stack or exited');
void stack.stopped.then(() => {
  if (!stopping) process.exit(fatal ? 1 : 0);
});
const stateDir = stack.infoPath.replace(/\/local\.json$/, '');
const { demo, created } = await ensureDemoAccount(stack.info);
stack.info.demo = demo;
const kept = values['in-memory'] ? undefined : loadPersistentSecrets(stateDir);
// A Stripe account at the stand-in, ready for the demo account to connect (README, "Going live").
const stripeDemo = await ensureStandInStripeAccount(
  stack.info,
  demo.developer_id,
  created ? undefined : kept?.stripe_demo,
);
stack.info.stripe_demo = stripeDemo;
writeLocalInfo(stateDir, stack.info);
// Only a persistent start records its demo account there; an in-memory run keeps its own to itself.
if (kept && (created || kept.stripe_demo?.account_id !== stripeDemo.account_id))
  savePersistentSecrets(stateDir, { ...loadPersistentSecrets(stateDir), demo, stripe_demo: stripeDemo });
const rotated = ' (rotated since: use the key PATCH answered)';
const current = async (key: string) => created || (await keyIsCurrent(key));
const [testCurrent, liveCurrent] = await Promise.all([current(demo.test_key), current(demo.live_key)]);
const testNote = testCurrent ? '' : rotated;
const liveNote = liveCurrent ? '' : rotated;
// Live mode says what it is connected to: here, unless an operator changed it, the simulated acquirer.
const liveConnection = await getConnection(makeDeps(), demo.developer_id, 'live');
const liveMode =
  liveConnection.connector === 'simulated'
    ? 'simulated acquirer: no real money moves (test cards, as in test mode)'
    : liveConnection.connector === 'stripe'
      ? `connected to Stripe account ${liveConnection.record.stripe.account_id}`
      : 'not connected: live payments are refused (npm run -s cli -- accounts connect)';
// The try: lines never show a dead key: after a rotation they show where the key goes instead.
const tryKey = testCurrent ? demo.test_key : '<your test key>';
const tryHint = testCurrent
  ? ''
  : `
       (the demo test key above was rotated: put the key its rotation showed (the API's answer, or the dashboard's API keys page) in place of <your test key>)`;

// The demo account's dashboard admin signs in once through a fresh link; people sign in, keys do not.
const admin = await demoAdminLink(demo);
const usersAdd = `npm run -s cli -- users add --account ${demo.developer_id} --email EMAIL --role developer`;
const linkWords = !admin
  ? ''
  : admin.purpose === 'set_password'
    ? `set ${admin.email}'s password with this link`
    : admin.hasPassword
      ? `sign in as ${admin.email} with its password, or once with this link`
      : `sign in as ${admin.email} once with this link`;
const dashboardLines = admin
  ? `${linkWords} (valid 24 hours; a new one every start):
                   ${admin.url}
                   ${admin.hasPassword ? '' : 'then set a password under Your profile. '}More people (admin, developer, support, viewer):
                   ${usersAdd}`
  : `(${demo.email} signs in to another account: add someone with ${usersAdd})`;

const { info } = stack;
// One write, so whoever waits for the ready line has the keys in the same chunk.
console.log(`cobro listening on ${info.api_url}

  ready in ${((performance.now() - started) / 1000).toFixed(1)} s${values['in-memory'] ? ' (in memory: nothing is kept)' : ''}${
    rehearsal
      ? `
  rehearsal        the functions CDK bundled, under the template's IAM policies; their logs in
                   ${stateDir}/rehearsal/logs/`
      : ''
  }
  demo account ${demo.developer_id} (${demo.email})${created ? ', created now' : ''}
    test key       ${demo.test_key}${testNote}
    live key       ${demo.live_key}${liveNote}
    live mode      ${liveMode}
    client_id      ${demo.client_id}
    client_secret  ${demo.client_secret}
  health           ${info.health_url}
  checkout         ${info.checkout_url}/<token>  (the redirect POST /v1/payments/ answers)
  dashboard        ${info.api_url}/dashboard/
                   ${dashboardLines}
  sent e-mail      ${info.mail_url ?? info.mail_inbox_url}  (every e-mail the stack sent; JSON: curl -L ${info.mail_url ?? ''}/store)
  webhooks         npm run cli -- webhooks listen [--forward-to URL]  (prints each delivery)
                   npm run cli -- trigger payment.succeeded  (a test event of any type, to them)
                   deliveries: GET ${info.api_url}/v1/webhook-endpoints/<id>/deliveries/
                   events:     GET ${info.api_url}/v1/events/
  Stripe stand-in  ${info.stripe_url}  (Stripe's API and Checkout page, stood in: no network, no real money)
                   a Stripe account there for the demo account (${stripeDemo.account_id}); to take live payments through it:
                   npm run -s cli -- accounts connect --account ${demo.developer_id} --mode live --stripe-standin
  DynamoDB Local   ${info.endpoints.dynamodb}  (table ${info.table})
  S3 emulator      ${info.endpoints.s3}  (bucket ${info.media_bucket})
  EventBridge      ${info.endpoints.eventbridge}
  Secrets Manager  ${info.endpoints.secretsmanager}  (the stack's secrets, for its own key pair only)
  state            ${stack.infoPath}

  try: curl -u ${tryKey}: ${info.api_url}/v1/auth/api-keys/
       curl -u ${tryKey}: -H 'content-type: application/json' \\
         -d '{"amount":"25.00","description":"First order","currency":"USD","items":["Tea"],"return_url":"http://localhost/thanks"}' \\
         ${info.api_url}/v1/payments/
       then open data.redirect in a browser and pay with 4242 4242 4242 4242;
       the payer is then a customer: curl -u ${tryKey}: ${info.api_url}/v1/customers/${tryHint}
  Ctrl-C stops everything.`);
