/**
 * The layers of cobro, enforced by dependency-cruiser in `npm test` (npm run deps).
 *
 *   shared/core            errors, messages, validation, Mode/Scope, limits, money, ids, config, log
 *   shared/db              the one table (keys, entities, transactions); imports core only
 *   shared/events, mail,   ports to outside systems (EventBridge, SES, S3, the acquirer); each imports
 *   media, acquirer        core, db and itself, never another port; acquirer/acquirer.ts, the port
 *                          itself, imports core only (the simulated acquirer is an adapter behind it)
 *   shared/http            the runtime HTTP adapter (middy, bodies, answers, idempotency); core, db
 *   shared/web             the one way to make a page or an e-mail's HTML (escaping templates, the
 *                          hosted page shell); imports core only, and every port and area may use it
 *   shared/stack           what an area declares for the stack (defineArea, its event rules and
 *                          schedules): types of core and the route row's (http/route.ts) only; read by
 *                          each area's area.ts, the top and the entry points that build the stack
 *   shared/<area>          the business areas, lowest first (areaOrder, read from the one list of
 *                          areas, shared/api/areas.ts): each may import core, db, the ports and lower
 *                          areas' rules. Its area.ts, routes.ts and *http.ts files are its HTTP
 *                          adapters: only they import shared/http, and only functions, the top and
 *                          the area's own adapters import them (never another area)
 *   shared/api             the top: the list of areas, and what is assembled from it (the route
 *                          table, the event catalogue, the rules and schedules, the OpenAPI document)
 *   functions, infra, bin  entry points; they may import anything in shared, never each other's, but
 *                          for bin's two launchers (app.ts builds infra's CDK stack, start.ts starts
 *                          infra/local) and the CLI's infra/local/info.ts (where a local stack runs)
 *   shared/client          the typed client (@cobro/client): outside the layers, it reaches cobro over
 *                          HTTP only; it imports nothing of the server, and nothing of the server
 *                          imports it
 *
 * Cycles count `import type` too. Tests may import anything.
 */
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

/**
 * The areas, lowest first, as shared/api/areas.ts lists them (the one list of areas): read as text,
 * each `xArea` entry of its `areas` array named by the folder it is imported from. Anything it
 * cannot read is an error here, never a shorter list.
 */
function readAreaOrder() {
  const file = join(__dirname, 'shared/api/areas.ts');
  const text = readFileSync(file, 'utf8');
  const folderOf = new Map(
    [...text.matchAll(/^import \{ (\w+) \} from '\.\.\/([a-z-]+)\/area\.ts';$/gm)].map((m) => [m[1], m[2]]),
  );
  const list = /^export const areas\b[^=]*= \[\n((?:[ \t]*\w+,\n)+)\];$/m.exec(text);
  if (!list) throw new Error(`${file}: no \`export const areas = [\` list of one entry a line`);
  return list[1]
    .split('\n')
    .map((line) => line.trim().replace(/,$/, ''))
    .filter(Boolean)
    .map((entry) => {
      const folder = folderOf.get(entry);
      if (!folder) throw new Error(`${file}: ${entry} is not imported from '../<folder>/area.ts'`);
      return folder;
    });
}

const areaOrder = readAreaOrder();
/** The ports to outside systems; below them all is shared/db, the one table they and the areas share. */
const ports = ['events', 'mail', 'media', 'acquirer'];
const notTest = '\\.test\\.ts$';
const under = (folders) => `^shared/(${folders.join('|')})/`;
/**
 * An area's HTTP adapters: its routes.ts (and *-routes.ts, an area's routes in parts) and its *http.ts files, and its area.ts (what it declares
 * for the stack, routes included), which only shared/api/areas.ts imports.
 */
const areaAdapter = '^shared/[^/]+/(area|[a-z-]*routes|[a-z-]*http)\\.ts$';

const upward = areaOrder.slice(0, -1).map((area, index) => ({
  name: `area-${area}-imports-higher-area`,
  comment: `${area} may import only areas below it: ${areaOrder.slice(0, index).join(', ') || 'none'}`,
  severity: 'error',
  from: { path: under([area]), pathNot: notTest },
  to: { path: under(areaOrder.slice(index + 1)) },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment:
        'Imports never go round in a circle, `import type` ones included: erased when the code runs, they still tie the modules together.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'core-imports-nothing-above',
      comment: 'shared/core is the base: it imports no port, adapter or area.',
      severity: 'error',
      from: { path: '^shared/core/', pathNot: notTest },
      to: { path: '^shared/', pathNot: '^shared/core/' },
    },
    {
      name: 'db-imports-core-only',
      comment:
        'shared/db is the table every port and area keeps its records in: it imports core only, never a port, the adapter or an area.',
      severity: 'error',
      from: { path: '^shared/db/', pathNot: notTest },
      to: { path: '^shared/', pathNot: under(['core', 'db']) },
    },
    {
      name: 'port-imports-no-other-port',
      comment:
        'A port (events, mail, media, acquirer) imports core, the table (db), the page templates (web: the e-mails are HTML) and itself: never another port, the adapter or an area.',
      severity: 'error',
      from: { path: `^shared/(${ports.join('|')})/`, pathNot: notTest },
      to: { path: '^shared/', pathNot: '^shared/(core|db|web|$1)/' },
    },
    {
      name: 'acquirer-port-imports-no-adapter',
      comment:
        'acquirer.ts is the port itself (what cobro asks of an acquirer): it imports core only, never the simulated acquirer or another adapter behind it.',
      severity: 'error',
      from: { path: '^shared/acquirer/acquirer\\.ts$' },
      to: { path: '^shared/', pathNot: '^shared/core/' },
    },
    {
      name: 'area-rules-use-acquirer-port',
      comment:
        "An area's rules, services and repositories use the acquirer port (acquirer.ts, cards.ts, connection.ts: which connector a mode is connected to, and notices.ts: what a connector tells by itself) and get the acquirer in their deps; only entry points and *http.ts adapters pick one (configured.ts), and no area names a connector's adapter (simulated.ts, stripe.ts).",
      severity: 'error',
      from: { path: under(areaOrder), pathNot: `${areaAdapter}|${notTest}` },
      to: {
        path: '^shared/acquirer/',
        pathNot: '^shared/acquirer/(acquirer|cards|connection|messages|notices)\\.ts$',
      },
    },
    {
      name: 'http-adapter-imports-no-area',
      comment: 'The HTTP adapter imports core and the table (db); areas and the route table sit above it.',
      severity: 'error',
      from: { path: '^shared/http/', pathNot: notTest },
      to: { path: '^shared/', pathNot: under(['core', 'db', 'http']) },
    },
    {
      name: 'web-imports-core-only',
      comment:
        'shared/web (the HTML templates and the hosted page shell) is a base like core: it imports core only, never the table, a port, the adapter or an area, so every area and port may use it.',
      severity: 'error',
      from: { path: '^shared/web/', pathNot: notTest },
      to: { path: '^shared/', pathNot: under(['core', 'web']) },
    },
    {
      name: 'stack-imports-route-types-only',
      comment:
        "shared/stack (what an area declares for the stack: defineArea, event rules, schedules) is data and types: it imports core and the route row's type (shared/http/route.ts), never the rest of the HTTP adapter, a port or an area.",
      severity: 'error',
      from: { path: '^shared/stack/', pathNot: notTest },
      to: { path: '^shared/', pathNot: '^shared/(core|stack)/|^shared/http/route\\.ts$' },
    },
    {
      name: 'stack-only-for-area-descriptors',
      comment:
        "Of shared code and functions, only an area's area.ts and the top (shared/api) import shared/stack: a rule, a service, a handler has nothing to declare to the stack.",
      severity: 'error',
      from: {
        path: '^(shared|functions)/',
        pathNot: `^shared/(api|stack)/|^shared/[^/]+/area\\.ts$|${notTest}`,
      },
      to: { path: '^shared/stack/' },
    },
    {
      name: 'area-rules-import-no-http',
      comment:
        "An area's rules, views and repository know nothing of HTTP; only its area.ts, routes.ts (and a section's *-routes.ts) and *http.ts adapters may.",
      severity: 'error',
      from: {
        path: `${under(areaOrder)}(?!area\\.ts|[a-z-]*routes\\.ts|[a-z-]*http\\.ts)[^/]+$`,
        pathNot: notTest,
      },
      to: { path: '^shared/http/' },
    },
    {
      name: 'area-adapter-only-for-entry-points',
      comment:
        "An area's HTTP adapters (area.ts, routes.ts, *http.ts) are imported by functions and the top (shared/api), never by rules, services or repositories: through them shared/http would reach code that must know nothing of HTTP. What both need moves down into the area's rules.",
      severity: 'error',
      from: { path: '^shared/', pathNot: `^shared/api/|${areaAdapter}|${notTest}` },
      to: { path: areaAdapter, pathNot: '^shared/(api|http|stack)/' },
    },
    {
      name: 'area-adapter-imports-no-other-area-adapter',
      comment:
        "An area's HTTP adapters import their own area's adapters, never another area's: a shared piece moves down into that area's rules.",
      severity: 'error',
      from: {
        path: '^shared/([^/]+)/(area|[a-z-]*routes|[a-z-]*http)\\.ts$',
        pathNot: '^shared/(api|http|stack)/',
      },
      to: { path: areaAdapter, pathNot: '^shared/($1|api|http|stack)/' },
    },
    ...upward,
    {
      name: 'shared-imports-no-entry-point',
      comment: 'Shared code never imports functions, infra, bin or tests.',
      severity: 'error',
      from: { path: '^shared/', pathNot: notTest },
      to: { path: '^(functions|infra|bin|test)/' },
    },
    {
      name: 'areas-import-no-top',
      comment: 'Nothing below the top imports the route table, the event catalogue or the OpenAPI document.',
      severity: 'error',
      from: { path: '^shared/', pathNot: `^shared/api/|${notTest}` },
      to: { path: '^shared/api/' },
    },
    {
      name: 'functions-import-no-entry-point',
      comment: 'A function imports shared code, never another function, infra, bin or tests.',
      severity: 'error',
      from: { path: '^functions/', pathNot: notTest },
      to: { path: '^(infra|bin|test)/|^functions/' },
    },
    {
      name: 'infra-imports-no-entry-point',
      comment: 'infra (the CDK app, the local stack) imports shared code, never a function, bin or tests.',
      severity: 'error',
      from: { path: '^infra/', pathNot: notTest },
      to: { path: '^(functions|bin|test)/' },
    },
    {
      name: 'bin-imports-no-infra',
      comment:
        "The operator CLI (bin/cli.ts and its commands in bin/cli/) also runs against a deployed table: of infra it imports, directly or not, only infra/local/info.ts (where a running local stack is and how to reach it) and infra/local/stripe-accounts.ts (a Stripe account at that stack's Stripe stand-in, over HTTP), never the local stack itself or the CDK app. The launchers are the exception, being what they launch: bin/app.ts is the CDK app (cdk.json) and builds infra's stack; bin/start.ts is npm start and starts infra/local.",
      severity: 'error',
      from: { path: '^bin/', pathNot: `^bin/(app|start)\\.ts$|${notTest}` },
      to: { path: '^infra/', pathNot: '^infra/local/(info|stripe-accounts)\\.ts$', reachable: true },
    },
    {
      name: 'client-imports-no-server',
      comment:
        "The typed client (shared/client, the @cobro/client package) reaches cobro over HTTP only: it imports its own files and its packages, never the server's code. What it knows of the API is the types generated from the OpenAPI document.",
      severity: 'error',
      from: { path: '^shared/client/' },
      to: { path: '^(shared/(?!client/)|functions/|infra/|bin/|test/)' },
    },
    {
      name: 'server-imports-no-client',
      comment:
        "cobro's own code never imports the typed client (by path or as @cobro/client): the client is built from the server's document, so the server cannot depend on it.",
      severity: 'error',
      from: { path: '^(shared/(?!client/)|functions/|infra/|bin/)' },
      to: { path: '^shared/client/|(^|/)node_modules/@cobro/client/' },
    },
    {
      name: 'small-functions-bundle-no-schema',
      comment: 'health, not-routed and the authorizer must not bundle any area schema (or the route table).',
      severity: 'error',
      from: { path: '^functions/(system/health|system/not-routed|authorizer/authorize)\\.ts$' },
      to: { path: '^shared/([^/]+/schemas\\.ts|api/)', reachable: true },
    },
  ],
  options: {
    // TypeScript 7 has no compiler API, so dependency-cruiser cannot use tsc: swc reads the sources
    // as written, before compilation, and marks `import type` edges 'type-only' by itself.
    // tsPreCompilationDeps is left out: it only asks for tsc, and set without one it warns on every
    // run that sources may be missed (test/architecture/sources.test.ts holds that none are).
    parser: 'swc',
    // Packages resolve through their `exports`, as Node resolves them: @cobro/client (a workspace,
    // linked in node_modules) resolves to its sources under shared/client, so the rules see it.
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'node', 'default'] },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: 'node_modules|^cdk\\.out' },
  },
};
