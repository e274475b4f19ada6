/**
 * What rehearsal mode reads from the synthesized template: each function (its bundle, its
 * environment, its role), each role's policy statements, the event rules, the stream mapping and the
 * schedules, with every Ref / Fn::GetAtt / Fn::Join / Fn::Sub resolved to the local stack's names
 * and ARNs. Nothing here comes from shared/: a grant, a variable or a rule the template lacks is
 * missing here too.
 *
 * Only the stack's own template is read: it holds every function, role, rule and the stream
 * mapping. Its one nested stack, the alarms' (infra/observability.ts), holds none of them
 * (test/infra/resources.test.ts fails if a nested template ever does).
 */
import { existsSync } from 'node:fs';
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

/** Resolves the intrinsic functions the template uses; anything else is an error, never a guess. */
export function resolver(resources: Record<string, CfnResource>, names: LocalNames) {
  const constructIdOf = (logicalId: string) => logicalId.replace(/[0-9A-F]{8}$/, '');
  const arnOf = (logicalId: string): string => {
    const resource = resources[logicalId];
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
  const refOf = (logicalId: string): string => {
    switch (logicalId) {
      case 'AWS::Region':
        return names.region;
      case 'AWS::AccountId':
        return names.account;
      case 'AWS::Partition':
        return 'aws';
      case 'AWS::URLSuffix':
        return 'amazonaws.com';
    }
    const resource = resources[logicalId];
    const id = constructIdOf(logicalId);
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
        if (attribute === 'Arn') return arnOf(logicalId);
        if (attribute === 'StreamArn') return `${arnOf(logicalId)}/stream/local`;
        throw new Error(`no local value for Fn::GetAtt ${logicalId}.${attribute}`);
      }
      if (key === 'Fn::Join') {
        const [separator, parts] = argument as [string, Json[]];
        // The API's own URL (https://<api id>.execute-api.<region>.<suffix>/<stage>) is the gateway's.
        if (parts.some((part) => isRefTo(part, resources, 'AWS::ApiGateway::RestApi'))) return names.apiUrl();
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

function isRefTo(value: Json, resources: Record<string, CfnResource>, type: string): boolean {
  if (typeof value !== 'object' || value === null || !('Ref' in value)) return false;
  return resources[String((value as { Ref: unknown }).Ref)]?.Type === type;
}

const list = (value: Json): string[] => (Array.isArray(value) ? value.map(String) : [String(value)]);

/** Reads an assembly's template for the local stack whose names are given. */
export function readRehearsalTemplate(assembly: CachedAssembly, names: LocalNames): RehearsalTemplate {
  const resources = assembly.template.Resources;
  const resolve = resolver(resources, names);
  const parameters = (assembly.template.Parameters ?? {}) as Record<string, { Default?: unknown }>;
  const entries = Object.entries(resources);
  const ofType = (type: string) => entries.filter(([, resource]) => resource.Type === type);
  const functions = new Map<string, TemplateFunction>();
  const handlers = new Map<string, string>();
  const policies = new Map<string, Statement[]>();
  const rules: TemplateRule[] = [];
  const schedules = new Map<string, string[]>();
  const streamTargets: string[] = [];
  const statementsOf = (document: { Statement?: Json[] } | undefined): Statement[] =>
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

  for (const [logicalId, resource] of ofType('AWS::Lambda::Function')) {
    const properties = resource.Properties ?? {};
    const code = properties.Code as { S3Key?: string } | undefined;
    // The asset folder is named after the hash the S3 key carries (`<hash>.zip`).
    const assetPath =
      (resource.Metadata?.['aws:asset:path'] as string | undefined) ??
      (code?.S3Key ? `asset.${code.S3Key.replace(/\.zip$/, '')}` : undefined);
    if (!assetPath) continue; // inline code (none in this app): nothing to run here
    const [file = 'index', exportName = 'handler'] = String(properties.Handler ?? 'index.handler').split('.');
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
      role: roleId,
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
    const statements = statementsOf(properties.PolicyDocument as { Statement?: Json[] } | undefined);
    for (const role of (properties.Roles as { Ref?: string }[] | undefined) ?? [])
      if (role.Ref) grant(role.Ref, statements);
  }
  for (const [logicalId, resource] of ofType('AWS::IAM::Role')) {
    const inline = (resource.Properties?.Policies as { PolicyDocument?: { Statement?: Json[] } }[]) ?? [];
    for (const policy of inline) grant(logicalId, statementsOf(policy.PolicyDocument));
  }

  const targetFunctions = (targets: Json): string[] =>
    ((targets as { Arn?: { 'Fn::GetAtt'?: [string, string] } }[] | undefined) ?? [])
      .map((target) => target.Arn?.['Fn::GetAtt']?.[0])
      .filter((id): id is string => id !== undefined && functions.has(id));
  for (const [logicalId, resource] of ofType('AWS::Events::Rule')) {
    const properties = resource.Properties ?? {};
    if (properties.State === 'DISABLED') continue;
    const name = String(properties.Name ?? logicalId);
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
    if (ref !== undefined && functions.has(ref)) streamTargets.push(ref);
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
