/**
 * Every function bundled as the CDK app bundles it (infra/cobro-stack.ts: NodejsFunction with ESM,
 * minified, node24, the createRequire banner, infra/bundling.ts's SDK and source-map choice), with
 * esbuild's metafile: how many bytes each function ships and which message modules (an area's
 * `messages.ts`) land in it. `npm run bench -- --only bundles` prints it; the architecture test
 * holds the limits on it.
 */
import { join } from 'node:path';
import { type BuildOptions, build, type Metafile } from 'esbuild';
import { esmRequireBanner, type FunctionBundling, functionBundling } from '../../infra/bundling.ts';
import { projectRoot } from '../../infra/local/info.ts';
import { eventRules, outboxRelay, schedules } from '../../shared/api/event-rules.ts';
import { authorizer, fallback, routes } from '../../shared/api/routes.ts';

/** Every function's entry module, relative to the repository root, as the CDK app deploys them. */
export const functionEntries: readonly string[] = [
  ...new Set([
    ...routes.map((r) => r.handler),
    fallback.handler,
    authorizer.handler,
    ...eventRules.map((r) => r.target),
    ...schedules.map((s) => s.target),
    outboxRelay.handler,
  ]),
];

/** esbuild's options for a function, as NodejsFunction sets them for `bundling`. */
export function functionBuildOptions(
  bundling: FunctionBundling = functionBundling,
): BuildOptions & { metafile: true } {
  return {
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    minify: true,
    sourcemap: bundling.sourceMap ? 'linked' : false,
    mainFields: ['module', 'main'],
    external: bundling.bundleAwsSdk ? [] : ['@aws-sdk/*'],
    banner: { js: esmRequireBanner },
    metafile: true,
    logLevel: 'error',
  };
}

export interface FunctionBundle {
  /** The entry, relative to the repository root (`functions/system/health.ts`). */
  entry: string;
  /** Bytes of the bundled JavaScript. */
  bytes: number;
  /**
   * Source modules of cobro that put code into the bundle, root-relative, with the bytes each put
   * there (tree-shaken ones left out).
   */
  modules: Map<string, number>;
}

/** The message modules (`shared/<folder>/messages.ts`) a bundle holds, with their bytes in it. */
export const messageModules = (bundle: FunctionBundle): [path: string, bytes: number][] =>
  [...bundle.modules].filter(([path]) => /^shared\/[^/]+\/messages\.ts$/.test(path));

/** The folder of `shared/` a module is in (`plans` for shared/plans/service.ts), or undefined. */
export const sharedFolderOf = (path: string) => /^shared\/([^/]+)\//.exec(path)?.[1];

/**
 * Bundles each entry (root-relative) in memory, one esbuild build per function, exactly as the CDK
 * app builds one per NodejsFunction.
 */
export async function bundleFunctions(
  entries: readonly string[],
  options: { root?: string; bundling?: FunctionBundling } = {},
): Promise<FunctionBundle[]> {
  const root = options.root ?? projectRoot;
  const bundles: FunctionBundle[] = [];
  for (const entry of entries) {
    const result = await build({
      ...functionBuildOptions(options.bundling),
      entryPoints: [join(root, entry)],
      outfile: join(root, '.cobro', 'bundles', entry.replace(/\.ts$/, '.mjs')),
      absWorkingDir: root,
      write: false,
    });
    const js = result.outputFiles.find((file) => file.path.endsWith('.mjs'));
    if (!js) throw new Error(`esbuild wrote no bundle for ${entry}`);
    bundles.push({ entry, bytes: js.contents.byteLength, modules: bundledModules(result.metafile) });
  }
  return bundles;
}

/** cobro's modules whose code is in the output (esbuild lists tree-shaken ones with 0 bytes). */
function bundledModules(metafile: Metafile): Map<string, number> {
  const modules = new Map<string, number>();
  for (const output of Object.values(metafile.outputs)) {
    for (const [path, input] of Object.entries(output.inputs)) {
      if (input.bytesInOutput > 0 && !path.startsWith('node_modules/'))
        modules.set(path, (modules.get(path) ?? 0) + input.bytesInOutput);
    }
  }
  return new Map([...modules].sort(([a], [b]) => a.localeCompare(b)));
}
