/**
 * Parts 0 and 1 of `npm run bench` (test/bench/bench.ts), which need no stack: each function's
 * bundle as deployed with the message texts in it (--only bundles), and each function's bundle and
 * cold import beside its floors, in four variants (--only cold, --imports N).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { functionBundling } from '../../infra/bundling.ts';
import { projectRoot } from '../../infra/local/info.ts';
import { fallback, routesEnvironment } from '../../shared/api/routes.ts';
import { envNames } from '../../shared/core/config.ts';
import {
  bundleFunctions,
  type FunctionBundle,
  functionBuildOptions,
  functionEntries,
  messageModules,
  sharedFolderOf,
} from '../support/bundles.ts';

/** Where part 1 writes its floors and bundles; bench.ts removes it when it is done. */
export const outDir = join(projectRoot, '.cobro', 'bench');

/**
 * Part 0: every function bundled as deployed (infra/bundling.ts), its bytes, the bytes of message
 * texts in it (every `shared/<folder>/messages.ts`, and the base's rules) and the folders those texts
 * are of.
 */
export async function benchBundleSizes(): Promise<void> {
  const deployedBundles = await bundleFunctions(functionEntries);
  const external = await bundleFunctions(functionEntries, {
    bundling: { ...functionBundling, bundleAwsSdk: false },
  });
  console.log(`bundles: each function as deployed (${JSON.stringify(functionBundling)}), esbuild metafile`);
  console.log("SDK ext = the same with @aws-sdk/* left out (what is cobro's own and its other libraries)");
  console.log(
    'texts = bytes the modules of texts (shared/<folder>/messages.ts, shared/core/rules.ts) put in it\n',
  );
  console.log(
    `${'function'.padEnd(48)} ${'bytes'.padStart(8)} ${'SDK ext'.padStart(8)} ${'texts'.padStart(7)}  message modules`,
  );
  const rows = deployedBundles.map((bundle, i) => ({ bundle, external: external[i] as FunctionBundle }));
  for (const { bundle, external } of rows.sort((a, b) => a.bundle.entry.localeCompare(b.bundle.entry))) {
    const texts = messageModules(bundle);
    const textBytes = texts.reduce((sum, [, bytes]) => sum + bytes, 0);
    const folders = texts.map(([path]) => sharedFolderOf(path)).join(' ');
    console.log(
      `${bundle.entry.replace(/^functions\//, '').padEnd(48)} ${String(bundle.bytes).padStart(8)} ${String(external.bytes).padStart(8)} ${String(textBytes).padStart(7)}  ${folders}`,
    );
  }
  const total = (bundles: FunctionBundle[]) => bundles.reduce((sum, b) => sum + b.bytes, 0);
  console.log(
    `\n${rows.length} functions: ${total(deployedBundles)} bytes in all as deployed, ${total(external)} with the SDK left out\n`,
  );
}

/** One way of bundling and running a function: the columns of the cold-import table. */
interface Variant {
  label: string;
  bundleAwsSdk: boolean;
  sourceMap: boolean;
}
const variants: Variant[] = [
  { label: 'SDK in, no map', bundleAwsSdk: true, sourceMap: false },
  { label: 'SDK in, map', bundleAwsSdk: true, sourceMap: true },
  { label: 'SDK ext, no map', bundleAwsSdk: false, sourceMap: false },
  { label: 'SDK ext, map', bundleAwsSdk: false, sourceMap: true },
];
const deployed = variants.findIndex(
  (v) => v.bundleAwsSdk === functionBundling.bundleAwsSdk && v.sourceMap === functionBundling.sourceMap,
);

/** One client and a command of each SDK client package a function may load. */
const clientCommands: Record<string, [client: string, command: string]> = {
  '@aws-sdk/client-dynamodb': ['DynamoDBClient', 'GetItemCommand'],
  '@aws-sdk/client-eventbridge': ['EventBridgeClient', 'PutEventsCommand'],
  '@aws-sdk/client-s3': ['S3Client', 'GetObjectCommand'],
  '@aws-sdk/client-secrets-manager': ['SecretsManagerClient', 'GetSecretValueCommand'],
  '@aws-sdk/client-ses': ['SESClient', 'SendEmailCommand'],
};
const minimalSdk = 'minimal SDK handler';

/**
 * A handler that only makes the given SDK clients at import and sends one command each: the floor
 * of a function that loads those clients. With DynamoDB alone it is the minimal SDK handler.
 */
function minimalHandler(packages: readonly string[]): string {
  const lines = packages.map((pkg, i) => {
    const [client, command] = clientCommands[pkg] ?? [];
    if (!client || !command) throw new Error(`no minimal command for ${pkg}`);
    return {
      head: `import { ${client} as C${i}, ${command} as K${i} } from '${pkg}';\nconst c${i} = new C${i}({});`,
      call: `c${i}.send(new K${i}(event))`,
    };
  });
  return `${lines.map((l) => l.head).join('\n')}
export const handler = async (event) => Promise.all([${lines.map((l) => l.call).join(', ')}]);
`;
}

interface Bundle {
  file: string;
  bytes: number;
  /** The `@aws-sdk/client-*` packages it imports (seen with the SDK external). */
  clients: string[];
}

/**
 * Bundles an entry as infra/functions.ts does (NodejsFunction: ESM, minified, node24, the
 * createRequire banner), with the variant's SDK and source-map settings; a source map is linked
 * (`//# sourceMappingURL`), as NodejsFunction's `sourceMap: true` writes it.
 */
async function bundle(entry: string, name: string, variant: Variant): Promise<Bundle> {
  const file = join(
    outDir,
    `${variant.bundleAwsSdk ? 'in' : 'ext'}-${variant.sourceMap ? 'map' : 'nomap'}`,
    `${name}.mjs`,
  );
  const result = await build({ ...functionBuildOptions(variant), entryPoints: [entry], outfile: file });
  const imports = Object.values(result.metafile.outputs).flatMap((output) => output.imports);
  const clients = imports.filter((i) => i.external && i.path.startsWith('@aws-sdk/client-'));
  return { file, bytes: statSync(file).size, clients: [...new Set(clients.map((i) => i.path))].sort() };
}

interface Sample {
  /** Wall-clock ms of the import. */
  wall: number;
  /** CPU ms (user + system) of the process during the import: less hit by other load on the machine. */
  cpu: number;
}

/** Times importing a bundle in a fresh process (the SDK it leaves external included). */
function coldImport(file: string, sourceMaps: boolean): Sample {
  const script = `const c = process.cpuUsage(); const t = performance.now(); await import(${JSON.stringify(pathToFileURL(file).href)}); const w = performance.now() - t; const u = process.cpuUsage(c); process.stdout.write(JSON.stringify({ wall: w, cpu: (u.user + u.system) / 1000 }));`;
  const out = execFileSync(
    process.execPath,
    [...(sourceMaps ? ['--enable-source-maps'] : []), '--input-type=module', '-e', script],
    {
      env: {
        ...process.env,
        NODE_OPTIONS: '',
        TABLE_NAME: 'bench',
        EVENT_BUS_NAME: 'bench',
        MEDIA_BUCKET: 'bench',
        MAIL_FROM: 'bench@example.com',
        // Secrets are read on first use, not at import: their ids are all a cold import needs.
        [envNames.tokenSecret]: 'bench/token-secret',
        [envNames.fingerprintSecret]: 'bench/fingerprint-secret',
        [envNames.webhookKey]: 'bench/webhook-key',
        PUBLIC_BASE_URL: 'https://bench.example.com',
        ...fallback.environment,
        ...routesEnvironment,
        AWS_REGION: 'us-east-1',
        AWS_ACCESS_KEY_ID: 'bench',
        AWS_SECRET_ACCESS_KEY: 'bench',
        AWS_EC2_METADATA_DISABLED: 'true',
      },
      cwd: outDir,
    },
  );
  return JSON.parse(out.toString()) as Sample;
}

interface Row {
  name: string;
  /** A floor (hello-world, a minimal handler) rather than one of cobro's functions. */
  floor: boolean;
  bundles: Bundle[];
  samples: Sample[][];
}

/** Part 1: every function's bundle and cold import beside its floors, in four variants. */
export async function benchColdImports({
  importRuns,
  percentile,
}: {
  importRuns: number;
  percentile: (sorted: number[], p: number) => number;
}): Promise<void> {
  const median = (values: number[]) =>
    percentile(
      [...values].sort((a, b) => a - b),
      50,
    );
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(join(outDir, 'src'), { recursive: true });
  const rows: Row[] = [];
  const slug = (name: string) => name.replace(/\W+/g, '-');
  const addFloor = async (name: string, source: string) => {
    const entry = join(outDir, 'src', `${slug(name)}.mjs`);
    writeFileSync(entry, source);
    const bundles: Bundle[] = [];
    for (const variant of variants) bundles.push(await bundle(entry, slug(name), variant));
    rows.push({ name, floor: true, bundles, samples: [] });
  };
  await addFloor(minimalSdk, minimalHandler(['@aws-sdk/client-dynamodb']));
  await addFloor('hello-world', "export const handler = async () => ({ statusCode: 200, body: 'hello' });\n");
  for (const entry of functionEntries) {
    const bundles: Bundle[] = [];
    for (const variant of variants)
      bundles.push(await bundle(join(projectRoot, entry), slug(entry), variant));
    rows.push({ name: entry.replace(/^functions\//, ''), floor: false, bundles, samples: [] });
  }
  // The floor of every other set of clients a function loads.
  const clientsOf = (row: Row) => (row.bundles[2] as Bundle).clients;
  const floorName = (clients: string[]) =>
    clients.join(',') === '@aws-sdk/client-dynamodb'
      ? minimalSdk
      : `minimal ${clients.map((c) => c.replace('@aws-sdk/client-', '')).join('+')}`;
  for (const clients of new Set(rows.filter((r) => !r.floor).map((r) => clientsOf(r).join(',')))) {
    const list = clients.split(',').filter(Boolean);
    if (list.length > 0 && !rows.some((r) => r.name === floorName(list)))
      await addFloor(floorName(list), minimalHandler(list));
  }
  rows.sort((a, b) => Number(b.floor) - Number(a.floor));
  for (const row of rows) row.samples = variants.map(() => []);
  // Round-robin: run i of every bundle in every variant before run i + 1 of any, so that drift in the
  // machine's load hits every cell alike.
  for (let run = 0; run < importRuns; run++) {
    for (const row of rows) {
      for (const [v, variant] of variants.entries()) {
        row.samples[v]?.push(coldImport((row.bundles[v] as Bundle).file, variant.sourceMap));
      }
    }
  }
  const wall = (row: Row, v: number) => median((row.samples[v] ?? []).map((s) => s.wall));
  const cpu = (row: Row, v: number) => median((row.samples[v] ?? []).map((s) => s.cpu));
  const minimal = rows.find((r) => r.name === minimalSdk) as Row;

  console.log(
    `cold import: ms to import the bundle in a fresh node process, median of ${importRuns} (wall clock; cpu = the process's user+system time)`,
  );
  console.log('(x) = ratio to the minimal SDK handler (DynamoDBClient + GetItemCommand) in the same column');
  console.log(`* = deployed (infra/bundling.ts: ${JSON.stringify(functionBundling)})\n`);
  const d = deployed;
  console.log(
    `${'function'.padEnd(40)} ${'kB in'.padStart(6)} ${'kB ext'.padStart(6)}  ${variants.map((v, i) => `${i === d ? '*' : ' '}${v.label}`.padEnd(15)).join(' ')}  ${'*cpu'.padStart(14)}  vs own clients' floor (wall, cpu)`,
  );
  const over: string[] = [];
  for (const row of rows) {
    const kB = (b: Bundle | undefined) => ((b?.bytes ?? 0) / 1024).toFixed(1).padStart(6);
    const cells = variants.map((_, v) => {
      const ms = wall(row, v);
      return ` ${ms.toFixed(1).padStart(6)} (${(ms / wall(minimal, v)).toFixed(2)})`.padEnd(15);
    });
    const cpuCell = `${cpu(row, d).toFixed(1).padStart(6)} (${(cpu(row, d) / cpu(minimal, d)).toFixed(2)})`;
    let own = '';
    const clients = clientsOf(row);
    if (!row.floor && clients.length > 0) {
      const floor = rows.find((r) => r.name === floorName(clients)) as Row;
      const ratios = [wall(row, d) / wall(floor, d), cpu(row, d) / cpu(floor, d)];
      own = `${floor.name.replace('minimal ', '').replace(' handler', '')}: ${ratios.map((r) => r.toFixed(2)).join(', ')}`;
      if (Math.min(...ratios) > 1.1) over.push(`${row.name} (${own})`);
    }
    console.log(
      `${row.name.padEnd(40)} ${kB(row.bundles[0])} ${kB(row.bundles[2])}  ${cells.join(' ')}  ${cpuCell.padStart(14)}  ${own}`,
    );
  }
  console.log(
    over.length === 0
      ? `\nevery SDK-loading function is within 1.1x of the minimal handler of its SDK clients (${variants[d]?.label}, wall or cpu)\n`
      : `\nabove 1.1x of the minimal handler of its SDK clients (${variants[d]?.label}, wall and cpu): ${over.join('; ')}\n`,
  );
}
