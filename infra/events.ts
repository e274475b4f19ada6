/**
 * The event pipeline: stored events leave the table through its stream to the outbox relay, which
 * puts them on the bus (shared/events/outbox.ts); one rule per row of the event-rule table sends
 * them on to its target function, with retries and a dead-letter queue shared by every rule.
 */
import { type CfnElement, Duration, Stack, Validations } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as lambdaEvents from 'aws-cdk-lib/aws-lambda-event-sources';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { outboxRelay } from '../shared/api/outbox-relay.ts';
import { eventSource } from '../shared/events/event.ts';
import { outboxFilterPattern } from '../shared/events/outbox.ts';
import type { EventRule } from '../shared/stack/area.ts';
import type { CobroData } from './data.ts';
import { type CobroFunctions, pascalCase } from './functions.ts';
import { keepStackLevelId, stackLevelLogicalId, stackLevelUniqueId } from './logical-ids.ts';

/** An encrypted, SSL-only queue that keeps what it catches for 14 days (SQS's longest). */
export function deadLetterQueue(scope: Construct, id: string): sqs.Queue {
  const queue = new sqs.Queue(scope, id, {
    encryption: sqs.QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    retentionPeriod: Duration.days(14),
  });
  // What it holds is the only record of a failure: it keeps its stack-level id (infra/logical-ids.ts).
  keepStackLevelId(queue);
  Validations.of(queue).acknowledge({
    id: 'AwsSolutions-SQS3',
    reason: 'This queue is itself a dead-letter queue; nothing is redriven from it automatically.',
  });
  return queue;
}

/**
 * A rule's Lambda target whose undelivered events go to a dead-letter queue shared with other rules.
 * The CDK's own `deadLetterQueue` option adds one statement per rule to the queue's policy, and an
 * SQS queue policy takes at most 20 statements: the rules sharing a queue are allowed to send to it
 * by one statement naming them all instead (`allowRulesToSend`).
 */
export class LambdaTargetWithDeadLetters implements events.IRuleTarget {
  private readonly target: targets.LambdaFunction;
  private readonly queue: sqs.IQueue;

  constructor(
    fn: NodejsFunction,
    queue: sqs.IQueue,
    props: Omit<targets.LambdaFunctionProps, 'deadLetterQueue'> = {},
  ) {
    this.target = new targets.LambdaFunction(fn, props);
    this.queue = queue;
  }

  bind(rule: events.IRule, id?: string): events.RuleTargetConfig {
    return { ...this.target.bind(rule, id), deadLetterConfig: { arn: this.queue.queueArn } };
  }
}

/**
 * Lets EventBridge put in `queue` what these rules could not deliver, and nothing any other rule
 * sends (the rules' ARNs are the condition).
 */
export function allowRulesToSend(queue: sqs.Queue, rules: readonly events.Rule[]): void {
  if (rules.length === 0) return;
  queue.addToResourcePolicy(
    new iam.PolicyStatement({
      sid: 'AllowRules',
      principals: [new iam.ServicePrincipal('events.amazonaws.com')],
      actions: ['sqs:SendMessage'],
      resources: [queue.queueArn],
      conditions: { ArnEquals: { 'aws:SourceArn': rules.map((rule) => rule.ruleArn) } },
    }),
  );
}

/** A rule with the function it targets and the queue (shared by its kind) that catches what failed. */
export interface RoutedRule {
  readonly rule: events.Rule;
  readonly target: NodejsFunction;
  readonly deadLetterQueue: sqs.Queue;
}

export interface CobroEventsProps {
  readonly data: CobroData;
  readonly functions: CobroFunctions;
  readonly rules: readonly EventRule[];
}

export class CobroEvents extends Construct {
  /** Each event rule, by its row's name. */
  readonly rules = new Map<string, RoutedRule>();
  /** Where every event rule's failures are parked: undelivered events, and those its target still failed on. */
  readonly deadLetters: sqs.Queue;
  /** The outbox relay, fed by the table's stream. */
  readonly relay: NodejsFunction;
  /** The stream mapping that feeds the relay (its iterator age is the relay's lag). */
  readonly relayEventSource: lambdaEvents.DynamoEventSource;
  /** Where the stream mapping parks a batch it gave up on. */
  readonly relayDeadLetters: sqs.Queue;

  constructor(scope: Construct, id: string, props: CobroEventsProps) {
    super(scope, id);
    const { data, functions } = props;

    // One queue for every rule catches both failures: events a rule could not deliver (EventBridge
    // names the rule and the error in the message's attributes), and, as each target's own DLQ,
    // events the function still failed on after Lambda's asynchronous retries, which the rule's
    // dead-letter config alone would silently drop (Lambda records the request id and the error;
    // the event's detail-type leads to its rules). One queue rather than one per rule keeps the
    // template under CloudFormation's resource limit; docs/operations.md says how to tell the
    // failures apart.
    const queue = deadLetterQueue(this, 'EventRuleDlq');
    this.deadLetters = queue;
    for (const row of props.rules) {
      const ruleId = `${pascalCase(row.name)}Rule`;
      const target = functions.add({
        handler: row.target,
        access: row.access,
        timeout: Duration.seconds(30),
        // The role and log group it had when each rule had a queue of its own keep their ids.
        deadLetters: { queue, profile: `${ruleId}Dlq` },
      });
      const rule = new events.Rule(this, ruleId, {
        eventBus: data.bus,
        ruleName: row.name,
        eventPattern: { source: [row.source ?? eventSource], detailType: [...row.detailTypes] },
        targets: [new LambdaTargetWithDeadLetters(target, queue, { retryAttempts: 2 })],
      });
      // A named rule cannot be replaced in place: it keeps its stack-level id.
      keepStackLevelId(rule);
      this.rules.set(row.name, { rule, target, deadLetterQueue: queue });
    }
    allowRulesToSend(
      queue,
      [...this.rules.values()].map(({ rule }) => rule),
    );

    // Lambda's event source mapping filters for new event items, retries a failed batch from the
    // first record the relay reports, and after a day of failures parks the batch's description in
    // a queue an operator reads (the records themselves stay in the table, listed by GET /v1/events/).
    this.relayDeadLetters = deadLetterQueue(this, 'OutboxRelayDlq');
    this.relay = functions.add({
      handler: outboxRelay.handler,
      access: outboxRelay.access,
      timeout: Duration.seconds(60),
    });
    this.relayEventSource = new lambdaEvents.DynamoEventSource(data.table, {
      startingPosition: lambda.StartingPosition.TRIM_HORIZON,
      batchSize: 100,
      maxBatchingWindow: Duration.seconds(0),
      reportBatchItemFailures: true,
      retryAttempts: 10_000,
      maxRecordAge: Duration.days(1),
      parallelizationFactor: 4,
      onFailure: new lambdaEvents.SqsDlq(this.relayDeadLetters),
      filters: [lambda.FilterCriteria.filter(outboxFilterPattern(outboxRelay.entities))],
    });
    this.relay.addEventSource(this.relayEventSource);
    // The mapping keeps the logical id it had when the relay and the table sat under the stack: a
    // new mapping would start again from the oldest record the stream holds (up to a day) and put
    // those events on the bus a second time. Its function may change in place.
    const mapping = this.relay.node.children.find((child) =>
      child.node.id.startsWith('DynamoDBEventSource:'),
    );
    const element = mapping?.node.defaultChild as CfnElement | undefined;
    if (!element) throw new Error('the outbox relay has no stream mapping');
    const table = stackLevelUniqueId(Stack.of(this).node.id, [data.table.node.id]);
    element.overrideLogicalId(
      stackLevelLogicalId([this.relay.node.id, `DynamoDBEventSource:${table}`, 'Resource']),
    );
  }
}
