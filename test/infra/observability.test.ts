/**
 * What the stack gives an operator (infra/observability.ts): tracing on every function and on the
 * API stage, the Powertools layer of the installed release, the alarms and their encrypted topic,
 * the e-mail subscription, and the dashboard. Bundling is skipped: none of it depends on the code.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { App, type CfnResource } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { powertoolsVersion } from '../../infra/bundling.ts';
import { CobroStack, type CobroStackProps } from '../../infra/cobro-stack.ts';
import { applyNag } from '../../infra/nag.ts';
import { type Observability, powertoolsLayerParameter } from '../../infra/observability.ts';
import { stageConfig } from '../../infra/stage.ts';
import { eventRules, schedules } from '../../shared/api/event-rules.ts';
import { envNames } from '../../shared/core/config.ts';

type Resource = { Type: string; Properties: Record<string, unknown> };

/** The stack's own template, and its nested stack of alarms. */
let template: Template;
let resources: Record<string, Resource>;
let alarmTemplate: Template;
let alarmResources: Record<string, Resource>;
let unacknowledged: string[];
/** The alarms stack's parameters, as the stack gives them. */
let alarmParameters: Record<string, unknown>;

/**
 * What a value of the nested stack of alarms stands for in the stack's own template: a parameter
 * resolves to what the stack passes (`{ Ref: <function> }`); anything else is itself.
 */
const inStack = (value: unknown): unknown => {
  const ref = (value as { Ref?: string } | undefined)?.Ref;
  return ref ? (alarmParameters[ref] ?? value) : value;
};
/** The logical id of every resource of a type in the stack's own template, which holds every function and queue. */
const everywhere = (type: string) => Object.keys(resources).filter((id) => resources[id]?.Type === type);
/** The one metric an alarm reads, whether written as a plain metric or as a labelled metric query. */
const metricOf = (alarm: Record<string, unknown>) => {
  type Dimension = { Name: string; Value: unknown };
  const query = (alarm.Metrics as { MetricStat?: Record<string, unknown> }[] | undefined)?.find(
    (entry) => entry.MetricStat,
  )?.MetricStat;
  const metric = (query?.Metric ?? alarm) as {
    Namespace: string;
    MetricName: string;
    Dimensions?: Dimension[];
  };
  return {
    Namespace: metric.Namespace,
    MetricName: metric.MetricName,
    Dimensions: [...(metric.Dimensions ?? [])].sort((a, b) => a.Name.localeCompare(b.Name)),
    Period: (query?.Period ?? alarm.Period) as number,
    Stat: (query?.Stat ?? alarm.Statistic ?? alarm.ExtendedStatistic) as string,
  };
};
const ofType = (type: string) =>
  [...Object.values(resources), ...Object.values(alarmResources)].filter(
    (resource) => resource.Type === type,
  );
const alarmNamed = (name: string) => {
  const found = ofType('AWS::CloudWatch::Alarm').find(
    (alarm) => alarm.Properties.AlarmName === `cobro-prod-${name}`,
  );
  if (!found) throw new Error(`no alarm ${name}`);
  return found.Properties;
};

/** A stage's configuration from context values, as `cdk synth -c key=value` gives them. */
const configOf = (context: Record<string, string>) =>
  stageConfig((key) => (context as Record<string, string | undefined>)[key]);

/** Synthesizes a prod stack (bundling skipped) and reads its templates into the variables above. */
function load(props: Partial<CobroStackProps> = {}): void {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new CobroStack(app, 'cobro-prod', {
    config: configOf({ stage: 'prod', alarmEmail: 'ops@example.org' }),
    ...props,
  });
  applyNag(app);
  const assembly = app.synth();
  const report = JSON.parse(
    fs.readFileSync(path.join(assembly.directory, 'validation-report.json'), 'utf8'),
  ) as {
    pluginReports: { pluginName: string; violations: { ruleName: string; severity: string }[] }[];
  };
  unacknowledged = report.pluginReports.flatMap((plugin) =>
    plugin.violations.map((v) => `${v.severity} ${v.ruleName}`),
  );
  template = Template.fromStack(stack);
  resources = template.toJSON().Resources as Record<string, Resource>;
  const observability = stack.node.findChild('Observability') as Observability;
  alarmTemplate = Template.fromStack(observability.alarmStack);
  alarmResources = alarmTemplate.toJSON().Resources as Record<string, Resource>;
  alarmParameters = (resources[
    stack.getLogicalId(observability.alarmStack.nestedStackResource as CfnResource)
  ]?.Properties.Parameters ?? {}) as Record<string, unknown>;
}

beforeAll(() => load(), 300_000);

/** Every function is in exactly one group of errors and one of throttles, ten functions an alarm. */
function expectFunctionAlarms(): void {
  const functions = everywhere('AWS::Lambda::Function');
  for (const [kind, metric] of [
    ['errors', 'Errors'],
    ['throttles', 'Throttles'],
  ] as const) {
    const alarms = ofType('AWS::CloudWatch::Alarm').filter((alarm) =>
      String(alarm.Properties.AlarmName).startsWith(`cobro-prod-function-${kind}-`),
    );
    expect(alarms).toHaveLength(Math.ceil(functions.length / 10));
    const watched = alarms.flatMap((alarm) => {
      const queries = alarm.Properties.Metrics as {
        MetricStat?: { Metric: { MetricName: string; Dimensions: { Value: unknown }[] } };
      }[];
      const stats = queries.filter((query) => query.MetricStat);
      expect(stats.length).toBeLessThanOrEqual(10);
      for (const stat of stats) expect(stat.MetricStat?.Metric.MetricName).toBe(metric);
      return stats.map(
        (stat) => (inStack(stat.MetricStat?.Metric.Dimensions[0]?.Value) as { Ref: string }).Ref,
      );
    });
    expect([...watched].sort()).toEqual([...functions].sort());
  }
}

/** Every dead-letter queue has its depth alarm. */
function expectQueueAlarms(): void {
  const queues = everywhere('AWS::SQS::Queue');
  // One for the event rules, one for the schedules, and the relay's: an alarm each, not one per rule.
  expect(queues).toHaveLength(3);
  expect(eventRules.length + schedules.length).toBeGreaterThan(2);
  const names = ofType('AWS::CloudWatch::Alarm')
    .map((alarm) => String(alarm.Properties.AlarmName))
    .filter((name) => name.startsWith('cobro-prod-dead-letters-'));
  expect(names.sort()).toEqual(
    ['EventRuleDlq', 'OutboxRelayDlq', 'ScheduleDlq'].map((id) => `cobro-prod-dead-letters-${id}`).sort(),
  );
  const watched = ofType('AWS::CloudWatch::Alarm')
    .map((alarm) => metricOf(alarm.Properties))
    .filter((metric) => metric.MetricName === 'ApproximateNumberOfMessagesVisible')
    .map((metric) => (inStack(metric.Dimensions[0]?.Value) as { 'Fn::GetAtt': string[] })['Fn::GetAtt'][0]);
  expect(watched.sort()).toEqual([...queues].sort());
}

describe('tracing and the Powertools layer', () => {
  it('trace every function actively, load the installed release from its layer, and name the stage', () => {
    const parameters = template.toJSON().Parameters as Record<string, { Type: string; Default: string }>;
    const layer = Object.entries(parameters).find(
      ([, parameter]) => parameter.Default === powertoolsLayerParameter(powertoolsVersion),
    );
    expect(layer?.[1].Type).toBe('AWS::SSM::Parameter::Value<String>');
    expect(powertoolsVersion).toMatch(/^2\.\d+\.\d+$/);
    const functions = ofType('AWS::Lambda::Function');
    expect(functions.length).toBeGreaterThan(50);
    for (const fn of functions) {
      expect(fn.Properties.TracingConfig).toEqual({ Mode: 'Active' });
      expect(fn.Properties.Layers).toEqual([{ Ref: layer?.[0] }]);
      const variables = (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
      expect(variables[envNames.stage]).toBe('prod');
    }
  });

  it('trace the API stage', () => {
    template.hasResourceProperties('AWS::ApiGateway::Stage', { StageName: 'prod', TracingEnabled: true });
  });
});

describe('the alarm topic', () => {
  it('is encrypted under a rotated key CloudWatch may use, TLS only, and e-mails alarmEmail', () => {
    alarmTemplate.hasResourceProperties('AWS::KMS::Key', {
      EnableKeyRotation: true,
      KeyPolicy: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Principal: { Service: 'cloudwatch.amazonaws.com' },
            Action: ['kms:Decrypt', 'kms:GenerateDataKey*'],
          }),
        ]),
      },
    });
    alarmTemplate.hasResourceProperties('AWS::SNS::Topic', { KmsMasterKeyId: Match.anyValue() });
    alarmTemplate.hasResourceProperties('AWS::SNS::TopicPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
    alarmTemplate.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'ops@example.org',
    });
  });

  it('is told of every alarm and of its end', () => {
    const topic = Object.keys(alarmResources).find((id) => alarmResources[id]?.Type === 'AWS::SNS::Topic');
    for (const alarm of ofType('AWS::CloudWatch::Alarm')) {
      expect(alarm.Properties.AlarmActions).toEqual([{ Ref: topic }]);
      expect(alarm.Properties.OKActions).toEqual([{ Ref: topic }]);
    }
  });

  it('refuses an alarmEmail that is not an address', () => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
    expect(
      () =>
        new CobroStack(app, 'cobro-dev', {
          config: configOf({ stage: 'dev', alarmEmail: 'ops at example' }),
        }),
    ).toThrow(/alarmEmail/);
  }, 300_000);

  it('has no subscription without alarmEmail', () => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
    const dev = new CobroStack(app, 'cobro-dev', { config: configOf({ stage: 'dev' }) });
    const plain = Template.fromStack((dev.node.findChild('Observability') as Observability).alarmStack);
    plain.resourceCountIs('AWS::SNS::Subscription', 0);
    plain.resourceCountIs('AWS::SNS::Topic', 1);
  }, 300_000);
});

describe('the alarms', () => {
  it("watch the API stage's 5xx and p99 latency", () => {
    expect(alarmNamed('api-5xx')).toMatchObject({
      Namespace: 'AWS/ApiGateway',
      MetricName: '5XXError',
      Statistic: 'Sum',
      Threshold: 5,
    });
    expect(alarmNamed('api-latency-p99')).toMatchObject({
      MetricName: 'Latency',
      ExtendedStatistic: 'p99',
      Threshold: 3000,
    });
    const dimensions = (alarmNamed('api-5xx').Dimensions as { Name: string }[]).map((d) => d.Name).sort();
    expect(dimensions).toEqual(['ApiName', 'Stage']);
  });

  it("sum every function's errors and throttles, ten functions an alarm, each function in one group", () =>
    expectFunctionAlarms());

  it("watch every dead-letter queue's depth and the relay's iterator age", () => {
    expectQueueAlarms();
    expect(metricOf(alarmNamed('relay-iterator-age'))).toMatchObject({
      Namespace: 'AWS/Lambda',
      MetricName: 'IteratorAge',
      Stat: 'Maximum',
    });
  });

  it("watch cobro's own metrics: live webhook dead letters, billing failures, reconciliation mismatches", () => {
    const cobro = (name: string, dimensions: Record<string, string>, period = 300) => ({
      Namespace: 'cobro',
      MetricName: name,
      Dimensions: Object.entries({ service: 'cobro', stage: 'prod', ...dimensions })
        .map(([Name, Value]) => ({ Name, Value }))
        .sort((a, b) => a.Name.localeCompare(b.Name)),
      Period: period,
      Stat: 'Sum',
    });
    expect(metricOf(alarmNamed('webhook-dead-letters'))).toEqual(
      cobro('WebhookDeadLetters', { mode: 'live' }),
    );
    expect(metricOf(alarmNamed('billing-failures'))).toEqual(cobro('BillingFailures', {}));
    expect(metricOf(alarmNamed('reconciliation-mismatches'))).toEqual(
      cobro('ReconciliationMismatches', {}, 86_400),
    );
    expect(schedules.length).toBeGreaterThan(0);
  });

  it('stay few, and cdk-nag finds nothing unacknowledged', () => {
    const count = ofType('AWS::CloudWatch::Alarm').length;
    console.log(
      `${count} alarms; ${Object.keys(resources).length} resources in the stack, ${Object.keys(alarmResources).length} in its nested stack of alarms`,
    );
    expect(count).toBeLessThan(40);
    // What the nested stack reads of the stack (function and queue names, the API stage) are its
    // parameters, of which CloudFormation takes 200.
    const parameters = Object.keys(alarmTemplate.toJSON().Parameters ?? {});
    expect(parameters.length).toBeLessThan(150);
    expect(unacknowledged).toEqual([]);
  });
});

describe('the dashboard', () => {
  it('shows the alarms, the API, the functions, the queues, the relay and the business figures', () => {
    const [dashboard] = ofType('AWS::CloudWatch::Dashboard');
    expect(dashboard?.Properties.DashboardName).toBe('cobro-prod');
    const body = JSON.stringify(dashboard?.Properties.DashboardBody);
    for (const text of [
      'Alarms',
      '5XXError',
      'Latency',
      'Errors',
      'Throttles',
      'ApproximateNumberOfMessagesVisible',
      'IteratorAge',
      'ChargesApproved',
      'ChargesDeclined',
      'Refunds',
      'Renewals',
      'DunningRetries',
      'DunningCancellations',
      'WebhookDeliveries',
      'WebhookFailures',
      'WebhookDeadLetters',
      'BillingFailures',
      'PayoutsPaidOut',
      'AttemptsRecovered',
      'ReconciliationMismatches',
    ])
      expect(body, text).toContain(text);
  });
});

describe("the dashboard's counting rules", () => {
  // The overview's counters are kept by event rules whose target is the dashboard's counting
  // function: it, its rules and their dead-letter queue are the stack's own, as every rule's, and
  // the alarms watch them with the others.
  it('are among the rules, with their function in the stack’s own template', () => {
    const counting = eventRules.filter((rule) => rule.target === 'functions/dashboard/count-events.ts');
    expect(counting.length).toBeGreaterThan(0);
    const ruleNames = Object.values(resources)
      .filter((resource) => resource.Type === 'AWS::Events::Rule')
      .map((resource) => resource.Properties.Name);
    for (const rule of counting) expect(ruleNames).toContain(rule.name);
  });

  it("match every decline: the catalogue's, and the internal one of the pages and the legacy charge", () => {
    const patterns = Object.values(resources)
      .filter((resource) => resource.Type === 'AWS::Events::Rule')
      .map((resource) => resource.Properties.EventPattern as Record<string, string[]>);
    expect(patterns).toContainEqual({ source: ['cobro.internal'], 'detail-type': ['card.declined'] });
    expect(patterns).toContainEqual({
      source: ['cobro'],
      'detail-type': expect.arrayContaining(['payment.failed', 'subscription.payment_failed']),
    });
  });
});
