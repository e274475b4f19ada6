/**
 * What rehearsal mode reads from the synthesized template: each function (its bundle, its
 * environment, its role), each role's policy statements, the event rules, the stream mapping and the
 * schedules, with every Ref / Fn::GetAtt / Fn::Join / Fn::Sub resolved to the local stack's names
 * and ARNs. Nothing here comes from shared/: a grant, a variable or a rule the template lacks is
 * missing here too.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CachedAssembly, CfnResource } from '../../assembly.ts';
import { handlerOf } from '../../function-id.ts';
import { layerOf } from './layers.ts';

/** The local stack's names the template's references resolve to. */
export interface LocalNames {
  region: string;
  account: string;
  table: string;
  eventBus: string;
  mediaBucket: string;
  /** The secret's ARN on the local Secrets Manager endpoint, by the secret's construct id. */
  secretArn: (constructId: string) => string | undefined;
  /** The gateway's URL: what the API's own execute-api URL resolves to. */
  apiUrl: () => string;
}

export interface Statement {
  Effect: 'Allow' | 'Deny';
  Action: string[];
  Resource: string[];
  Condition?: Record<string, Record<string, string | string[]>>;
}

export interface TemplateFunction {
  /** Its logical id in the template. */
  logicalId: string;
  /** The bundle's entry file (the asset folder CDK wrote, and the handler's file in it). */
  bundle: string;
  /** The export the runtime calls. */
  exportName: string;
  /** Exactly the template's variables, resolved (PUBLIC_BASE_URL lazily: see environment()). */
  environment: () => Record<string, string>;
  /** The logical id of its role. */
  role: string;
  memoryMb: number;
  timeoutMs: number;
  /** The layers it loads (`powertools@2.35.0`), in the template's order: see layers.ts. */
  layers: string[];
}

export interface TemplateRule {
  name: string;
  pattern: { source?: string[]; 'detail-type'?: string[] };
  /** Logical ids of the functions it invokes. */
  targets: string[];
}

export interface RehearsalTemplate {
  functions: Map<string, TemplateFunction>;
  /** Each role's statements (all its policies'), by the role's logical id. */
  policies: Map<string, Statement[]>;
  /** Rules on the bus (an event pattern). */
  rules: TemplateRule[];
  /** Rules on a schedule, by their name (`cobro-<stage>-<schedule>`): the functions they run. */
  schedules: Map<string, string[]>;
  /** Functions the table's stream is mapped to. */
  streamTargets: string[];
  /** The function of a handler module (functions/…/x.ts), found by the construct id the app gives it. */
  functionOf(handler: string): TemplateFunction | undefined;
}

type Json = unknown;

const secretIds = ['TokenSecret', 'FingerprintSecret', 'WebhookKey'];

/**
 * Where a template sits among the stack's: a nested stack's template gets its parameters from its
 * parent's resource for it, and its functions, roles and queues are named with that resource's
 * logical id in front (two templates may use the same logical id).
 */
export interface TemplateScope {
  /** `''` for the stack's own template; `<nested stack's logical id>.` for a nested one. */
  prefix: string;
  /** A parameter's value (a nested template's parameter, as its parent passes it), resolved. */
  parameter?: (name: string) => Json | undefined;
  /** The type of the resource a parameter stands for, when the parent passes a Ref of one. */
  parameterType?: (name: string) => string | undefined;
  /** An output of a nested stack of this template (`Fn::GetAtt <stack>.Outputs.<name>`), resolved. */
  output?: (stackLogicalId: string, name: string) => Json;
}

/** Resolves the intrinsic functions the template uses; anything else is an error, never a guess. */
export function resolver(
  resources: Record<string, CfnResource>,
  names: LocalNames,
  scope: TemplateScope = { prefix: '' },
) {
  const constructIdOf = (logicalId: string) => logicalId.replace(/[0-9A-F]{8}$/, '');
  const arnOf = (bare: string): string => {
    const resource = resources[bare];
    const logicalId = `${scope.prefix}${bare}`;
    const id = constructIdOf(logicalId);
    switch (resource?.Type) {
      case 'AWS::DynamoDB::GlobalTable':
      case 'AWS::DynamoDB::Table':
        return `arn:aws:dynamodb:${names.region}:${names.account}:table/${names.table}`;
      case 'AWS::Events::EventBus':
        return `arn:aws:events:${names.region}:${names.account}:event-bus/${names.eventBus}`;
      case 'AWS::S3::Bucket':
        return `arn:aws:s3:::${refOf(logicalId)}`;
      case 'AWS::Lambda::Function':
        return `arn:aws:lambda:${names.region}:${names.account}:function:${logicalId}`;
      case 'AWS::SQS::Queue':
        return `arn:aws:sqs:${names.region}:${names.account}:${logicalId}`;
      case 'AWS::Logs::LogGroup':
        return `arn:aws:logs:${names.region}:${names.account}:log-group:${logicalId}:*`;
      case 'AWS::IAM::Role':
        return `arn:aws:iam::${names.account}:role/${logicalId}`;
      default:
        throw new Error(`no local ARN for ${logicalId} (${resource?.Type ?? 'not in the template'}, ${id})`);
    }
  };
  const refOf = (bare: string): string => {
    const logicalId = `${scope.prefix}${bare}`;
    switch (bare) {
      case 'AWS::Region':
        return names.region;
      case 'AWS::AccountId':
        return names.account;
      case 'AWS::Partition':
        return 'aws';
      case 'AWS::URLSuffix':
        return 'amazonaws.com';
    }
    const resource = resources[bare];
    if (!resource) {
      const value = scope.parameter?.(bare);
      if (value !== undefined) return String(value);
    }
    const id = constructIdOf(bare);
    switch (resource?.Type) {
      case 'AWS::DynamoDB::GlobalTable':
      case 'AWS::DynamoDB::Table':
        return names.table;
      case 'AWS::Events::EventBus':
        return names.eventBus;
      case 'AWS::S3::Bucket':
        // The media bucket is the only one a function is told of; the access log bucket is AWS's.
        return id === 'MediaBucket' ? names.mediaBucket : `cobro-local-${id.toLowerCase()}`;
      case 'AWS::SecretsManager::Secret': {
        const arn = secretIds.includes(id) ? names.secretArn(id) : undefined;
        if (!arn) throw new Error(`the local stack holds no secret for ${logicalId}`);
        return arn;
      }
      case 'AWS::IAM::Role':
      case 'AWS::Lambda::Function':
      case 'AWS::Logs::LogGroup':
      case 'AWS::ApiGateway::RestApi':
        return logicalId;
      default:
        throw new Error(`no local value for Ref ${logicalId} (${resource?.Type ?? 'not in the template'})`);
    }
  };
  const resolve = (value: Json): Json => {
    if (typeof value !== 'object' || value === null) return value;
    if (Array.isArray(value)) return value.map(resolve);
    const object = value as Record<string, Json>;
    const keys = Object.keys(object);
    if (keys.length === 1) {
      const [key] = keys as [string];
      const argument = object[key];
      if (key === 'Ref') return refOf(String(argument));
      if (key === 'Fn::GetAtt') {
        const [logicalId, attribute] = argument as [string, string];
        if (attribute.startsWith('Outputs.') && resources[logicalId]?.Type === 'AWS::CloudFormation::Stack') {
          if (!scope.output) throw new Error(`no local value for Fn::GetAtt ${logicalId}.${attribute}`);
          return scope.output(logicalId, attribute.slice('Outputs.'.length));
        }
        if (attribute === 'Arn') return arnOf(logicalId);
        if (attribute === 'StreamArn') return `${arnOf(logicalId)}/stream/local`;
        throw new Error(`no local value for Fn::GetAtt ${logicalId}.${attribute}`);
      }
      if (key === 'Fn::Join') {
        const [separator, parts] = argument as [string, Json[]];
        // The API's own URL (https://<api id>.execute-api.<region>.<suffix>/<stage>) is the gateway's.
        if (parts.some((part) => isRefTo(part, resources, 'AWS::ApiGateway::RestApi', scope)))
          return names.apiUrl();
        return parts.map((part) => String(resolve(part))).join(separator);
      }
      if (key === 'Fn::Sub' && typeof argument === 'string')
        return argument.replace(/\$\{([^}]+)\}/g, (_, name: string) => refOf(name));
      if (key.startsWith('Fn::')) throw new Error(`${key} is not resolved locally`);
    }
    return Object.fromEntries(keys.map((key) => [key, resolve(object[key])]));
  };
  return resolve;
}

function isRefTo(
  value: Json,
  resources: Record<string, CfnResource>,
  type: string,
  scope: TemplateScope,
): boolean {
  if (typeof value !== 'object' || value === null || !('Ref' in value)) return false;
  const name = String((value as { Ref: unknown }).Ref);
  return (resources[name]?.Type ?? scope.parameterType?.(name)) === type;
}

const list = (value: Json): string[] => (Array.isArray(value) ? value.map(String) : [String(value)]);

/** One template of the stack (its own, or a nested stack's), with how to resolve what it references. */
interface ScopedTemplate {
  prefix: string;
  resources: Record<string, CfnResource>;
  /** Its parameters, a nested template's as its parent passes them when they are the parent's. */
  parameters: Record<string, { Type?: string; Default?: unknown }>;
  resolve: (value: Json) => Json;
}

/**
 * The file of a nested stack's template in the assembly: the asset whose object key its TemplateURL
 * names, as the assembly's asset manifests list them (or the resource's asset metadata, when the
 * synth wrote it).
 */
function nestedTemplateFile(outdir: string, resource: CfnResource): string | undefined {
  const metadata = resource.Metadata?.['aws:asset:path'];
  if (typeof metadata === 'string') return metadata;
  const url = JSON.stringify(resource.Properties?.TemplateURL ?? '');
  for (const manifest of readdirSync(outdir).filter((name) => name.endsWith('.assets.json'))) {
    const { files = {} } = JSON.parse(readFileSync(join(outdir, manifest), 'utf8')) as {
      files?: Record<
        string,
        { source?: { path?: string }; destinations?: Record<string, { objectKey?: string }> }
      >;
    };
    for (const asset of Object.values(files)) {
      const keys = Object.values(asset.destinations ?? {}).map((destination) => destination.objectKey);
      if (asset.source?.path && keys.some((key) => key !== undefined && url.includes(`/${key}"`)))
        return asset.source.path;
    }
  }
  return undefined;
}

/**
 * The stack's template and every nested stack's under it (the alarms, the route groups of
 * infra/route-groups.ts), each with a resolver: a nested template's parameters resolve to what its
 * parent passes, in the parent's terms.
 */
function templatesOf(assembly: CachedAssembly, names: LocalNames): ScopedTemplate[] {
  const all: ScopedTemplate[] = [];
  const visit = (
    template: { Resources: Record<string, CfnResource>; Parameters?: unknown; Outputs?: unknown },
    prefix: string,
    parent?: { template: ScopedTemplate; passed: Record<string, Json> },
  ) => {
    const resources = template.Resources;
    const own = (template.Parameters ?? {}) as Record<string, { Type?: string; Default?: unknown }>;
    // A parameter the parent fills with a Ref of its own parameter (an SSM parameter's value) is that one.
    const parameters: ScopedTemplate['parameters'] = { ...own };
    const children = new Map<string, { template: typeof template; scoped?: ScopedTemplate }>();
    for (const [name, value] of Object.entries(parent?.passed ?? {})) {
      const ref = (value as { Ref?: unknown } | null)?.Ref;
      const inherited = typeof ref === 'string' ? parent?.template.parameters[ref] : undefined;
      if (inherited) parameters[name] = inherited;
    }
    const scoped: ScopedTemplate = {
      prefix,
      resources,
      parameters,
      resolve: resolver(resources, names, {
        prefix,
        parameter: (name) => {
          if (!parent || !(name in parent.passed)) return undefined;
          return parent.template.resolve(parent.passed[name]);
        },
        parameterType: (name) => {
          const ref = (parent?.passed[name] as { Ref?: unknown } | undefined)?.Ref;
          return typeof ref === 'string' ? parent?.template.resources[ref]?.Type : undefined;
        },
        output: (stackLogicalId, name) => {
          const child = children.get(stackLogicalId);
          const outputs = (child?.template.Outputs ?? {}) as Record<string, { Value?: Json }>;
          if (!child?.scoped || !(name in outputs))
            throw new Error(`no output ${name} of the nested stack ${prefix}${stackLogicalId}`);
          return child.scoped.resolve(outputs[name]?.Value);
        },
      }),
    };
    all.push(scoped);
    for (const [logicalId, resource] of Object.entries(resources)) {
      if (resource.Type !== 'AWS::CloudFormation::Stack') continue;
      const file = nestedTemplateFile(assembly.outdir, resource);
      if (!file || !existsSync(join(assembly.outdir, file)))
        throw new Error(`${prefix}${logicalId}: the nested stack's template is not in ${assembly.outdir}`);
      const child = JSON.parse(readFileSync(join(assembly.outdir, file), 'utf8')) as typeof template;
      const entry: { template: typeof template; scoped?: ScopedTemplate } = { template: child };
      children.set(logicalId, entry);
      const passed = (resource.Properties?.Parameters ?? {}) as Record<string, Json>;
      const before = all.length;
      visit(child, `${prefix}${logicalId}.`, { template: scoped, passed });
      entry.scoped = all[before];
    }
  };
  visit(assembly.template, '');
  return all;
}

/** Reads an assembly's template (and its nested stacks') for the local stack whose names are given. */
export function readRehearsalTemplate(assembly: CachedAssembly, names: LocalNames): RehearsalTemplate {
  const templates = templatesOf(assembly, names);
  const functions = new Map<string, TemplateFunction>();
  const handlers = new Map<string, string>();
  const policies = new Map<string, Statement[]>();
  const rules: TemplateRule[] = [];
  const schedules = new Map<string, string[]>();
  const streamTargets: string[] = [];
  const statementsOf = (
    resolve: ScopedTemplate['resolve'],
    document: { Statement?: Json[] } | undefined,
  ): Statement[] =>
    (document?.Statement ?? []).map((raw) => {
      const statement = resolve(raw) as Record<string, Json>;
      return {
        Effect: statement.Effect === 'Deny' ? 'Deny' : 'Allow',
        Action: list(statement.Action),
        Resource: list(statement.Resource),
        ...(statement.Condition ? { Condition: statement.Condition as Statement['Condition'] } : {}),
      } satisfies Statement;
    });
  const grant = (role: string, statements: Statement[]) =>
    policies.set(role, [...(policies.get(role) ?? []), ...statements]);

  for (const { prefix, resources, parameters, resolve } of templates) {
    const entries = Object.entries(resources);
    const ofType = (type: string) => entries.filter(([, resource]) => resource.Type === type);
    for (const [bare, resource] of ofType('AWS::Lambda::Function')) {
      const logicalId = `${prefix}${bare}`;
      const properties = resource.Properties ?? {};
      const code = properties.Code as { S3Key?: string } | undefined;
      // The asset folder is named after the hash the S3 key carries (`<hash>.zip`).
      const assetPath =
        (resource.Metadata?.['aws:asset:path'] as string | undefined) ??
        (code?.S3Key ? `asset.${code.S3Key.replace(/\.zip$/, '')}` : undefined);
      if (!assetPath) continue; // inline code (none in this app): nothing to run here
      const [file = 'index', exportName = 'handler'] = String(properties.Handler ?? 'index.handler').split(
        '.',
      );
      const folder = join(assembly.outdir, assetPath);
      const bundle = ['.mjs', '.js', '.cjs'].map((ext) => join(folder, `${file}${ext}`)).find(existsSync);
      if (!bundle) throw new Error(`${logicalId}: no ${file}.mjs or ${file}.js in ${folder}`);
      const variables = ((properties.Environment as { Variables?: Record<string, Json> } | undefined)
        ?.Variables ?? {}) as Record<string, Json>;
      const role = properties.Role as { 'Fn::GetAtt'?: [string, string] } | undefined;
      const roleId = role?.['Fn::GetAtt']?.[0];
      if (!roleId || resources[roleId]?.Type !== 'AWS::IAM::Role')
        throw new Error(`${logicalId}: its role is not a Fn::GetAtt of a role in the template`);
      let resolved: Record<string, string> | undefined;
      functions.set(logicalId, {
        logicalId,
        bundle,
        exportName,
        // Resolved on first use: the gateway's URL is known only once it listens.
        environment: () => {
          resolved ??= Object.fromEntries(
            Object.entries(variables).map(([name, value]) => [name, String(resolve(value))]),
          );
          return resolved;
        },
        role: `${prefix}${roleId}`,
        memoryMb: Number(properties.MemorySize ?? 128),
        timeoutMs: Number(properties.Timeout ?? 3) * 1000,
        layers: ((properties.Layers as Json[] | undefined) ?? []).map((entry) => layerOf(entry, parameters)),
      });
      const handler = handlerOf(resource);
      if (handler) handlers.set(handler, logicalId);
    }

    // A policy resource attached to roles (the relay's stream grant) and a role's inline policies
    // (what the CDK app writes for each access row) count the same.
    for (const [, resource] of ofType('AWS::IAM::Policy')) {
      const properties = resource.Properties ?? {};
      const statements = statementsOf(
        resolve,
        properties.PolicyDocument as { Statement?: Json[] } | undefined,
      );
      for (const role of (properties.Roles as { Ref?: string }[] | undefined) ?? [])
        if (role.Ref) grant(`${prefix}${role.Ref}`, statements);
    }
    for (const [bare, resource] of ofType('AWS::IAM::Role')) {
      const inline = (resource.Properties?.Policies as { PolicyDocument?: { Statement?: Json[] } }[]) ?? [];
      for (const policy of inline) grant(`${prefix}${bare}`, statementsOf(resolve, policy.PolicyDocument));
    }

    const targetFunctions = (targets: Json): string[] =>
      ((targets as { Arn?: { 'Fn::GetAtt'?: [string, string] } }[] | undefined) ?? [])
        .map((target) => target.Arn?.['Fn::GetAtt']?.[0])
        .map((id) => (id === undefined ? undefined : `${prefix}${id}`))
        .filter((id): id is string => id !== undefined && functions.has(id));
    for (const [bare, resource] of ofType('AWS::Events::Rule')) {
      const properties = resource.Properties ?? {};
      if (properties.State === 'DISABLED') continue;
      const name = String(properties.Name ?? `${prefix}${bare}`);
      if (properties.ScheduleExpression) schedules.set(name, targetFunctions(properties.Targets));
      else if (properties.EventPattern)
        rules.push({
          name,
          pattern: properties.EventPattern as TemplateRule['pattern'],
          targets: targetFunctions(properties.Targets),
        });
    }
    for (const [, resource] of ofType('AWS::Lambda::EventSourceMapping')) {
      const ref = (resource.Properties?.FunctionName as { Ref?: string } | undefined)?.Ref;
      if (ref !== undefined && functions.has(`${prefix}${ref}`)) streamTargets.push(`${prefix}${ref}`);
    }
  }

  return {
    functions,
    policies,
    rules,
    schedules,
    streamTargets,
    functionOf(handler) {
      const logicalId = handlers.get(handler);
      return logicalId === undefined ? undefined : functions.get(logicalId);
    },
  };
}

/** The targets of the template's rules an EventBridge event with this source and type matches. */
export function ruleTargets(rules: readonly TemplateRule[], source: string, detailType: string): string[] {
  return rules
    .filter(
      (rule) =>
        (rule.pattern.source?.includes(source) ?? true) &&
        (rule.pattern['detail-type']?.includes(detailType) ?? true),
    )
    .flatMap((rule) => rule.targets);
}
