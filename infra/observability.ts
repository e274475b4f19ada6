/**
 * Operating a stage: what its functions need to log, count and trace (the Powertools layer, the
 * stage as a metric dimension, X-Ray on the API stage), the alarms that call an operator, their SNS
 * topic, and one CloudWatch dashboard with the same figures. What each alarm means and what to do
 * about it is in docs/operations.md ("Alarms"); the metrics are those of shared/core/metrics.ts.
 *
 * The construct takes what it watches as props, so it holds no knowledge of how the stack is built.
 * Alarms stay few (the template must stay well under CloudFormation's 500 resources): the functions'
 * errors and throttles are summed with metric math, ten functions per alarm (the most metrics one
 * alarm may read), rather than one alarm per function or Lambda's account-wide figures, which would
 * count other stacks' functions too.
 */
import { Duration, NestedStack, Stack, Validations } from 'aws-cdk-lib';
import type * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as cloudwatchActions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import * as ssm from 'aws-cdk-lib/aws-ssm';
import { Construct } from 'constructs';
import { envNames } from '../shared/core/config.ts';
import { type MetricName, metricNames, metricsNamespace } from '../shared/core/metrics.ts';
import { powertoolsVersion } from './bundling.ts';
import type { Stage } from './stage.ts';

export interface ObservabilityProps {
  readonly stage: Stage;
  /** Every function of the stack: each gets the Powertools layer and the stage dimension, and is watched. */
  readonly functions: readonly lambda.Function[];
  /** Every dead-letter queue: an alarm on each one's depth. */
  readonly deadLetterQueues: readonly sqs.IQueue[];
  readonly restApi: apigateway.RestApi;
  /** The outbox relay, fed by the table's stream: an alarm on how far behind it reads. */
  readonly relay: lambda.IFunction;
  /** Where the alarms are e-mailed (the `alarmEmail` context value). @default no subscription */
  readonly alarmEmail?: string;
}

/** How many metrics one alarm's metric math may read. */
const metricsPerAlarm = 10;

/** The public parameter that holds the ARN of the Powertools for AWS Lambda (TypeScript) layer of a release. */
export const powertoolsLayerParameter = (version: string) =>
  `/aws/service/powertools/typescript/generic/all/${version}`;

export class Observability extends Construct {
  /** The nested stack the alarms, their topic and the dashboard are in. */
  readonly alarmStack: NestedStack;
  readonly topic: sns.Topic;
  readonly dashboard: cloudwatch.Dashboard;
  readonly alarms: cloudwatch.Alarm[] = [];

  constructor(scope: Construct, id: string, props: ObservabilityProps) {
    super(scope, id);
    const { stage } = props;
    const fiveMinutes = Duration.minutes(5);

    // Logger and Metrics are left out of the bundles (infra/bundling.ts): every function loads them
    // from the layer of the release installed here.
    const layer = lambda.LayerVersion.fromLayerVersionArn(
      this,
      'PowertoolsLayer',
      ssm.StringParameter.valueForStringParameter(this, powertoolsLayerParameter(powertoolsVersion)),
    );
    const roles = new Set<iam.IRole>();
    for (const fn of props.functions) {
      fn.addLayers(layer);
      fn.addEnvironment(envNames.stage, stage);
      if (fn.role) roles.add(fn.role);
    }
    // Active tracing lets each function send its segments to X-Ray; those actions name no resource.
    for (const role of roles) {
      Validations.of(role).acknowledge({
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason:
          'xray:PutTraceSegments and xray:PutTelemetryRecords (active tracing) take no resource: X-Ray has no resource ARN for them.',
      });
    }
    // X-Ray on the API stage too, so a trace starts at the gateway and includes the authorizer.
    const cfnStage = props.restApi.deploymentStage.node.defaultChild as apigateway.CfnStage;
    cfnStage.tracingEnabled = true;

    // The alarms, their topic and the dashboard make a nested stack of their own: a template holds
    // at most 500 resources, and the stack's functions, methods and permissions use most of its.
    const ops = new NestedStack(this, 'Alarms', { description: `cobro ${stage}: alarms and dashboard` });
    this.alarmStack = ops;

    // The alarms' topic: encrypted under a key of its own (CloudWatch cannot publish to a topic
    // under the AWS-managed SNS key), reached over TLS only.
    const key = new kms.Key(ops, 'AlarmTopicKey', {
      description: `cobro ${stage}: encrypts the alarm topic`,
      enableKeyRotation: true,
    });
    key.grant(new iam.ServicePrincipal('cloudwatch.amazonaws.com'), 'kms:Decrypt', 'kms:GenerateDataKey*');
    this.topic = new sns.Topic(ops, 'AlarmTopic', {
      displayName: `cobro ${stage} alarms`,
      masterKey: key,
      enforceSSL: true,
    });
    if (props.alarmEmail) {
      if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(props.alarmEmail))
        throw new Error(
          `Invalid alarmEmail ${JSON.stringify(props.alarmEmail)}: pass -c alarmEmail=ops@example.org.`,
        );
      this.topic.addSubscription(new subscriptions.EmailSubscription(props.alarmEmail));
    }

    const alarm = (alarmId: string, options: cloudwatch.AlarmProps) => {
      const made = new cloudwatch.Alarm(ops, alarmId, {
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
        ...options,
        alarmName: `cobro-${stage}-${options.alarmName}`,
      });
      made.addAlarmAction(new cloudwatchActions.SnsAction(this.topic));
      made.addOkAction(new cloudwatchActions.SnsAction(this.topic));
      this.alarms.push(made);
      return made;
    };
    const above = cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD;

    // The API, on its stage.
    const apiStage = props.restApi.deploymentStage;
    const serverErrors = apiStage.metricServerError({ period: fiveMinutes, statistic: 'Sum' });
    const p99 = apiStage.metricLatency({ period: fiveMinutes, statistic: 'p99' });
    alarm('Api5xx', {
      alarmName: 'api-5xx',
      alarmDescription:
        'The API answered 5 or more 5xx in 5 minutes (500s, and the 502/504 of an acquirer that refused or did not answer). See docs/operations.md, Alarms.',
      metric: serverErrors,
      threshold: 5,
      evaluationPeriods: 1,
      comparisonOperator: above,
    });
    alarm('ApiLatencyP99', {
      alarmName: 'api-latency-p99',
      alarmDescription:
        "The API's p99 latency was 3 s or more for 15 minutes. See docs/operations.md, Alarms.",
      metric: p99,
      threshold: 3000,
      evaluationPeriods: 3,
      comparisonOperator: above,
    });

    // Lambda errors and throttles, summed over groups of functions.
    const groups: lambda.Function[][] = [];
    for (let start = 0; start < props.functions.length; start += metricsPerAlarm)
      groups.push(props.functions.slice(start, start + metricsPerAlarm));
    // Each expression's metric ids are its own (`e1f0` …): the dashboard shows them side by side.
    const summed = (
      prefix: string,
      group: lambda.Function[],
      of: (fn: lambda.Function) => cloudwatch.IMetric,
      label: string,
    ): cloudwatch.MathExpression =>
      new cloudwatch.MathExpression({
        expression: group.map((_, index) => `FILL(${prefix}f${index}, 0)`).join(' + '),
        usingMetrics: Object.fromEntries(group.map((fn, index) => [`${prefix}f${index}`, of(fn)])),
        period: fiveMinutes,
        label,
      });
    const errorSums: cloudwatch.MathExpression[] = [];
    const throttleSums: cloudwatch.MathExpression[] = [];
    groups.forEach((group, index) => {
      const names = Stack.of(ops).toJsonString(group.map((fn) => fn.functionName));
      const errors = summed(
        `e${index + 1}`,
        group,
        (fn) => fn.metricErrors({ statistic: 'Sum' }),
        `errors, group ${index + 1}`,
      );
      const throttles = summed(
        `t${index + 1}`,
        group,
        (fn) => fn.metricThrottles({ statistic: 'Sum' }),
        `throttles, group ${index + 1}`,
      );
      errorSums.push(errors);
      throttleSums.push(throttles);
      alarm(`FunctionErrors${index + 1}`, {
        alarmName: `function-errors-${index + 1}`,
        alarmDescription: `A function of group ${index + 1} failed 3 or more invocations in 5 minutes. Functions: ${names}. See docs/operations.md, Alarms.`,
        metric: errors,
        threshold: 3,
        evaluationPeriods: 1,
        comparisonOperator: above,
      });
      alarm(`FunctionThrottles${index + 1}`, {
        alarmName: `function-throttles-${index + 1}`,
        alarmDescription: `A function of group ${index + 1} was throttled in 5 minutes. Functions: ${names}. See docs/operations.md, Alarms.`,
        metric: throttles,
        threshold: 1,
        evaluationPeriods: 1,
        comparisonOperator: above,
      });
    });

    // Every dead-letter queue: anything in one is work that did not happen.
    const queueDepths = props.deadLetterQueues.map((queue) =>
      queue.metricApproximateNumberOfMessagesVisible({ period: fiveMinutes, statistic: 'Maximum' }),
    );
    props.deadLetterQueues.forEach((queue, index) => {
      alarm(`${queue.node.id}Depth`, {
        alarmName: `dead-letters-${queue.node.id}`,
        alarmDescription: `Messages wait in the dead-letter queue ${queue.node.id}. See docs/operations.md, Alarms.`,
        metric: queueDepths[index] as cloudwatch.Metric,
        threshold: 1,
        evaluationPeriods: 1,
        comparisonOperator: above,
      });
    });

    // The outbox relay: how old the oldest record it has not read yet is.
    const iteratorAge = props.relay.metric('IteratorAge', { period: fiveMinutes, statistic: 'Maximum' });
    alarm('RelayIteratorAge', {
      alarmName: 'relay-iterator-age',
      alarmDescription:
        'Events wait 5 minutes or more in the table stream before the relay puts them on the bus (webhooks and e-mail are late). See docs/operations.md, Alarms.',
      metric: iteratorAge,
      threshold: 300_000,
      evaluationPeriods: 2,
      comparisonOperator: above,
    });

    // cobro's own metrics.
    const business = (name: MetricName, mode?: 'test' | 'live') =>
      new cloudwatch.Metric({
        namespace: metricsNamespace,
        metricName: name,
        dimensionsMap: { service: 'cobro', stage, ...(mode ? { mode } : {}) },
        statistic: 'Sum',
        period: fiveMinutes,
        label: mode ? `${name} (${mode})` : name,
      });
    alarm('WebhookDeadLetters', {
      alarmName: 'webhook-dead-letters',
      alarmDescription:
        'A live webhook delivery was given up after its last attempt. See docs/operations.md, Alarms.',
      metric: business(metricNames.webhookDeadLetters, 'live'),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: above,
    });
    alarm('BillingFailures', {
      alarmName: 'billing-failures',
      alarmDescription:
        'A billing run could not finish the step of a subscription or payment link (it is tried again next run). See docs/operations.md, Alarms.',
      metric: business(metricNames.billingFailures),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: above,
    });
    alarm('ReconciliationMismatches', {
      alarmName: 'reconciliation-mismatches',
      alarmDescription:
        "The daily reconciliation found records on which the acquirer's books and cobro's disagree. See docs/operations.md, Alarms.",
      metric: business(metricNames.reconciliationMismatches).with({ period: Duration.days(1) }),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: above,
    });

    const both = (name: MetricName) => [business(name, 'live'), business(name, 'test')];
    const graph = (title: string, left: cloudwatch.IMetric[], right: cloudwatch.IMetric[] = []) =>
      new cloudwatch.GraphWidget({ title, left, right, width: 12, height: 6 });
    this.dashboard = new cloudwatch.Dashboard(ops, 'Dashboard', {
      dashboardName: `cobro-${stage}`,
      defaultInterval: Duration.days(1),
      widgets: [
        [new cloudwatch.AlarmStatusWidget({ title: 'Alarms', alarms: this.alarms, width: 24, height: 4 })],
        [
          graph('API: 5xx and 4xx', [
            serverErrors,
            apiStage.metricClientError({ period: fiveMinutes, statistic: 'Sum' }),
          ]),
          graph('API: latency', [apiStage.metricLatency({ period: fiveMinutes, statistic: 'p50' }), p99]),
        ],
        [graph('Functions: errors', errorSums), graph('Functions: throttles', throttleSums)],
        [
          graph('Dead-letter queues: messages', queueDepths),
          graph('Outbox relay: iterator age (ms)', [iteratorAge]),
        ],
        [
          graph(
            'Charges',
            [...both(metricNames.chargesApproved), ...both(metricNames.chargesDeclined)],
            both(metricNames.refunds),
          ),
          graph('Subscriptions', both(metricNames.renewals), [
            ...both(metricNames.dunningRetries),
            ...both(metricNames.dunningCancellations),
          ]),
        ],
        [
          graph(
            'Webhooks',
            [...both(metricNames.webhookDeliveries), ...both(metricNames.webhookFailures)],
            both(metricNames.webhookDeadLetters),
          ),
          graph(
            'Billing runs',
            [business(metricNames.billingDue), business(metricNames.billingRenewed)],
            [
              business(metricNames.billingPaymentFailed),
              business(metricNames.billingCanceled),
              business(metricNames.billingFailures),
            ],
          ),
        ],
        [
          graph(
            'Payout runs',
            [business(metricNames.payoutsPaidOut)],
            [business(metricNames.payoutsRefused), business(metricNames.payoutsUnconfirmed)],
          ),
          graph(
            'Recovery and reconciliation',
            [business(metricNames.attemptsRecovered)],
            [business(metricNames.recoveryErrors), business(metricNames.reconciliationMismatches)],
          ),
        ],
      ],
    });
  }
}
