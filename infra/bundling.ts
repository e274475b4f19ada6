/**
 * How every function is bundled, chosen by `npm run bench -- --only cold`: the CDK app
 * (NodejsFunction) and the bench's cold-import table both read it here. With the SDK bundled in
 * (ESM, minified, tree-shaken) a cold import is faster than with the runtime's external copy, and
 * `--enable-source-maps` makes every cold start parse the map (about 2 MB with the SDK in): 20 to
 * 50 ms more in the bench. So: SDK in, no source map; stack traces point into the minified bundle.
 */

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
