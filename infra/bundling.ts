/**
 * How every function is bundled, chosen by `npm run bench -- --only cold`: the CDK app
 * (NodejsFunction) and the bench's cold-import table both read it here. With the SDK bundled in
 * (ESM, minified, tree-shaken) a cold import is faster than with the runtime's external copy, and
 * `--enable-source-maps` makes every cold start parse the map (about 2 MB with the SDK in): 20 to
 * 50 ms more in the bench. So: SDK in, no source map; stack traces point into the minified bundle.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Powertools Logger and Metrics, which every function runs, come from the Powertools Lambda layer
 * (infra/observability.ts adds it to every function) and are left out of the bundles. Bundled,
 * Logger and Metrics add 36 kB to every function (Logger 23.6 kB, Metrics 16.2 kB, minified, their
 * common code shared), which would take the health check from 19.9 kB past its 30 kB limit; from
 * the layer a function's cold import is slower (the health check's p50 109 ms against 89 ms
 * bundled on a 2-core build machine: unbundled modules read from disk), the price of small bundles. The layer's version is the one
 * installed here (`powertoolsVersion`), so what the tests run is what is deployed. Powertools
 * Parameters stays bundled: it imports the Secrets Manager client, which the layer does not hold.
 */
export const powertoolsLayerModules = ['@aws-lambda-powertools/logger', '@aws-lambda-powertools/metrics'];

/** The modules left out of a function's bundle: the SDK (when not bundled) and Powertools' layer modules. */
export const externalModulesOf = (bundling: FunctionBundling): string[] => [
  ...(bundling.bundleAwsSdk ? [] : ['@aws-sdk/*']),
  ...powertoolsLayerModules,
];

/** Makes `require` inside an ESM bundle, for the CommonJS dependencies that call it. */
export const esmRequireBanner =
  "import { createRequire } from 'module'; const require = createRequire(import.meta.url);";

export interface FunctionBundling {
  /** Bundle `@aws-sdk/*` into each function (true) or load the Lambda runtime's copy (false). */
  readonly bundleAwsSdk: boolean;
  /** Ship a source map and run with `--enable-source-maps`. */
  readonly sourceMap: boolean;
}

export const functionBundling: FunctionBundling = { bundleAwsSdk: true, sourceMap: false };

/**
 * The installed Powertools version: the layer functions run with is this release's
 * (infra/observability.ts reads its ARN from the public parameter Powertools keeps per version).
 */
export const powertoolsVersion: string = (
  JSON.parse(
    readFileSync(
      join(import.meta.dirname, '..', 'node_modules', '@aws-lambda-powertools', 'logger', 'package.json'),
      'utf8',
    ),
  ) as { version: string }
).version;
