/**
 * Every function bundled as the CDK app bundles it (infra/functions.ts: NodejsFunction with ESM,
 * minified, node24, the createRequire banner, infra/bundling.ts's SDK and source-map choice), with
 * esbuild's metafile: how many bytes each function ships and which message modules (an area's
 * `messages.ts`) land in it. `npm run bench -- --only bundles` prints it; the architecture test
 * holds the limits on it.
 */
import { join } from 'node:path';
import { type BuildOptions, build, type Metafile } from 'esbuild';
import {
  esmRequireBanner,
  externalModulesOf,
  type FunctionBundling,
  functionBundling,
} from '../../infra/bundling.ts';
import { projectRoot } from '../../infra/local/info.ts';
import { eventRules, schedules } from '../../shared/api/event-rules.ts';
import { outboxRelay } from '../../shared/api/outbox-relay.ts';
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
    external: externalModulesOf(bundling),
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
   * The modules that put code into the bundle, cobro's and its libraries', root-relative, with the
   * bytes each put there (tree-shaken ones left out).
   */
  modules: Map<string, number>;
}

/**
 * The modules of texts a bundle holds, with their bytes in it: each folder's messages.ts, and the
 * base's validation rules (shared/core/rules.ts).
 */
export const messageModules = (bundle: FunctionBundle): [path: string, bytes: number][] =>
  [...bundle.modules].filter(([path]) =>
    /^shared\/[^/]+\/messages\.ts$|^shared\/core\/rules\.ts$/.test(path),
  );

/** The folder of `shared/` a module is in (`plans` for shared/plans/service.ts), or undefined. */
export const sharedFolderOf = (path: string) => /^shared\/([^/]+)\//.exec(path)?.[1];

/**
 * Bundles each entry (root-relative) in memory. One esbuild build takes them all: without code
 * splitting every entry point gets a file of its own that shares nothing with the others, the same
 * bytes a build of that entry alone makes (as the CDK app runs one per NodejsFunction), in a third
 * of the time.
 */
export async function bundleFunctions(
  entries: readonly string[],
  options: { root?: string; bundling?: FunctionBundling } = {},
): Promise<FunctionBundle[]> {
  const root = options.root ?? projectRoot;
  const out = (entry: string) => entry.replace(/\.ts$/, '');
  const result = await build({
    ...functionBuildOptions(options.bundling),
    entryPoints: entries.map((entry) => ({ in: join(root, entry), out: out(entry) })),
    outdir: join(root, '.cobro', 'bundles'),
    outExtension: { '.js': '.mjs' },
    absWorkingDir: root,
    write: false,
  });
  return entries.map((entry) => {
    const file = join(root, '.cobro', 'bundles', `${out(entry)}.mjs`);
    const js = result.outputFiles.find((output) => output.path === file);
    const meta = Object.entries(result.metafile.outputs).find(([path]) => join(root, path) === file)?.[1];
    if (!js || !meta) throw new Error(`esbuild wrote no bundle for ${entry}`);
    return { entry, bytes: js.contents.byteLength, modules: bundledModules(meta.inputs) };
  });
}

/** The modules whose code is in the output (esbuild lists tree-shaken ones with 0 bytes). */
function bundledModules(inputs: Metafile['outputs'][string]['inputs']): Map<string, number> {
  const modules = Object.entries(inputs).filter(([, input]) => input.bytesInOutput > 0);
  return new Map(
    modules
      .map(([path, input]) => [path, input.bytesInOutput] as const)
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}

/**
 * The message modules a bundle holds while it runs no other code of their folder: the texts of an
 * area whose code the function never runs. A folder's messages are read by that folder's code, or
 * by a higher area's code that runs it too (subscriptions answering a plan that does not exist).
 */
export function strayMessages(bundle: FunctionBundle): string[] {
  const modules = [...bundle.modules.keys()];
  return messageModules(bundle)
    .map(([path]) => path)
    .filter(
      (path) => !modules.some((other) => other !== path && sharedFolderOf(other) === sharedFolderOf(path)),
    );
}

/**
 * The bytes each of `modules` (root-relative) leaves in a function that imports them and reads
 * nothing of them: what a bundle pays for a module whose code it never runs.
 */
export async function bytesWhenUnread(
  modules: readonly string[],
  options: { root?: string } = {},
): Promise<Map<string, number>> {
  const root = options.root ?? projectRoot;
  const result = await build({
    ...functionBuildOptions({ bundleAwsSdk: false, sourceMap: false }),
    stdin: {
      contents: modules.map((path) => `import './${path}';`).join('\n'),
      resolveDir: root,
      sourcefile: 'imports-only.ts',
      loader: 'ts',
    },
    outfile: join(root, '.cobro', 'bundles', 'imports-only.mjs'),
    absWorkingDir: root,
    write: false,
  });
  const inputs = Object.values(result.metafile.outputs)[0]?.inputs ?? {};
  return new Map(modules.map((path) => [path, inputs[path]?.bytesInOutput ?? 0]));
}
