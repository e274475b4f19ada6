#!/usr/bin/env node
/**
 * `npm run smoke -- --url <base URL> --key <test key>`: the operator's check right after
 * `cdk deploy` (or against `npm start`). It talks to the stage over HTTP only, as a merchant's code
 * would, prints one line per check, removes what it made, and exits 0 only when every check passed.
 */
import { parseArgs } from 'node:util';
import { runSmoke, type SmokeOptions, type StepResult } from './smoke/checks.ts';

const usage = `usage: npm run smoke -- --url URL --key sk_test_... [options]

Checks a running cobro stage: health; the key is accepted and an unknown one refused (401); a
test-mode plan created and read back; a test payment, its hosted checkout page (HTML, security
headers) paid with the test card 4242 4242 4242 4242; its payment.succeeded webhook received
and its signature verified. Then it deletes what it created (webhook endpoint, customer, plan)
and refunds the test charge, even when a check failed. Exit 0 when every check passed, 1
otherwise, 2 on a usage error.

  --url URL          the stage's base URL (the PublicBaseUrl stack output, or http://127.0.0.1:3000)
  --key KEY          a secret test key (sk_test_...); or COBRO_SMOKE_KEY in the environment,
                     which keeps it out of the shell's history
  --receiver URL     a public URL that forwards to the port this check listens on (--listen):
                     needed for a deployed stage, which delivers webhooks to public addresses only.
                     Without it, against a stack on loopback, the check registers its own
                     loopback address
  --listen [HOST:]PORT  where the webhook receiver listens (default 127.0.0.1, port 8787 with
                     --receiver, any free port without; 0: any free port)
  --timeout SECONDS  how long to wait for the webhook (default 30)
  --json             one JSON object at the end instead of lines
`;

class UsageError extends Error {}

const defaultReceiverPort = 8787;

function parseListen(value: string | undefined, withReceiver: boolean): SmokeOptions['listen'] {
  if (value === undefined) return { host: '127.0.0.1', port: withReceiver ? defaultReceiverPort : 0 };
  const colon = value.lastIndexOf(':');
  const host = colon < 0 ? '127.0.0.1' : value.slice(0, colon).replace(/^\[|\]$/g, '');
  const port = Number(colon < 0 ? value : value.slice(colon + 1));
  if (!host || !Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new UsageError(`--listen takes PORT or HOST:PORT, not "${value}"`);
  }
  return { host, port };
}

function parseOptions(argv: string[]): SmokeOptions & { json: boolean } {
  const { values } = parseArgs({
    args: argv,
    options: {
      url: { type: 'string' },
      key: { type: 'string' },
      receiver: { type: 'string' },
      listen: { type: 'string' },
      timeout: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  const key = values.key ?? process.env.COBRO_SMOKE_KEY;
  if (!values.url) throw new UsageError('--url is required');
  if (!URL.canParse(values.url) || !/^https?:$/.test(new URL(values.url).protocol)) {
    throw new UsageError(`--url must be an http(s) URL, not "${values.url}"`);
  }
  if (!key) throw new UsageError('--key (or COBRO_SMOKE_KEY) is required');
  // The check creates, pays and deletes records: in test mode only, where nothing real moves.
  if (!key.startsWith('sk_test_')) throw new UsageError('--key must be a test key (sk_test_...)');
  if (values.receiver !== undefined && !/^https?:\/\//.test(values.receiver)) {
    throw new UsageError(`--receiver must be an http(s) URL, not "${values.receiver}"`);
  }
  const timeout = Number(values.timeout ?? 30);
  if (!Number.isFinite(timeout) || timeout <= 0) throw new UsageError('--timeout takes a number of seconds');
  return {
    url: values.url,
    key,
    ...(values.receiver !== undefined ? { receiver: values.receiver } : {}),
    listen: parseListen(values.listen, values.receiver !== undefined),
    webhookTimeoutMs: timeout * 1000,
    json: values.json,
  };
}

/** Keys and webhook secrets never reach the output, even inside an answer quoted in a FAIL line. */
const redact = (text: string) =>
  text.replace(/\b(sk_(?:test|live)_|whsec_|cs_)[A-Za-z0-9+/=_-]+/g, (_, prefix: string) => `${prefix}…`);

const line = (result: StepResult) =>
  `${result.outcome.padEnd(4)}  ${result.step.padEnd(18)}  ${redact(result.detail)}  (${result.ms} ms)`;

async function main(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(usage);
    return 0;
  }
  let options: ReturnType<typeof parseOptions>;
  try {
    options = parseOptions(argv);
  } catch (error) {
    if (error instanceof UsageError || (error instanceof TypeError && 'code' in error)) {
      console.error(`smoke: ${error.message}\n\n${usage}`);
      return 2;
    }
    throw error;
  }
  // Ctrl-C stops the checks and lets the clean-up run; a second Ctrl-C leaves at once.
  const interrupt = new AbortController();
  process.on('SIGINT', () => {
    if (interrupt.signal.aborted) process.exit(130);
    interrupt.abort();
  });
  const started = performance.now();
  const { results, created } = await runSmoke(
    options,
    (result) => {
      if (!options.json) console.log(line(result));
    },
    interrupt.signal,
  );
  // A check skipped because the stage cannot have it (a test mode paying on Stripe's page) is no
  // failure; one skipped because an earlier one failed is counted apart: the failures are the cause.
  const failed = results.filter((result) => result.outcome === 'FAIL').length;
  const skipped = results.filter((result) => result.outcome === 'skip').length;
  const ok = failed === 0 && !interrupt.signal.aborted;
  const ms = Math.round(performance.now() - started);
  if (options.json) {
    const steps = results.map((result) => ({ ...result, detail: redact(result.detail) }));
    console.log(JSON.stringify({ ok, url: options.url, ms, steps, created }));
  } else {
    console.log(
      ok
        ? `all ${results.length - skipped} checks passed${skipped ? `, ${skipped} skipped (see why above)` : ''} in ${ms} ms`
        : `${failed} of ${results.length} checks failed${skipped ? `, ${skipped} skipped after them` : ''} (${ms} ms)`,
    );
  }
  if (interrupt.signal.aborted) return 130;
  return ok ? 0 : 1;
}

process.exitCode = await main(process.argv.slice(2));
