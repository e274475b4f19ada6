/**
 * Logical ids that must not change when a resource moves into a construct: CloudFormation replaces
 * a resource whose logical id changed, and for the table, the buckets, the secrets, the dead-letter
 * queues and the named rules and bus that would lose data or fail the deploy (a custom name cannot
 * exist twice). Each keeps the id it had when it sat directly under the stack.
 */
import { App, type CfnElement, CfnResource, Names, Stack } from 'aws-cdk-lib';
import { Construct, type IConstruct } from 'constructs';

/**
 * The logical id a CloudFormation element would get at `path` (construct ids from the stack down),
 * computed by the stack's own naming on a throwaway stack, so it matches the CDK's scheme exactly.
 */
export function stackLevelLogicalId(path: readonly string[]): string {
  const probe = new Stack(new App({ autoSynth: false }), 'Probe');
  let scope: Construct = probe;
  for (const id of path.slice(0, -1)) scope = new Construct(scope, id);
  const element = new CfnResource(scope, path[path.length - 1] as string, { type: 'Probe::Probe' });
  return probe.getLogicalId(element);
}

/**
 * Gives the CloudFormation resource of `construct` (its default child) the logical id it had when
 * `construct` sat directly under the stack with the same construct id.
 */
export function keepStackLevelId(construct: IConstruct): void {
  const element = construct.node.defaultChild as CfnElement | undefined;
  if (!element) throw new Error(`${construct.node.path} has no CloudFormation resource`);
  const below = element.node.path.slice(construct.node.path.length + 1).split('/');
  element.overrideLogicalId(stackLevelLogicalId([construct.node.id, ...below]));
}

/**
 * The unique id (`Names.nodeUniqueId`) a construct had at `path` directly under the stack
 * `stackId`: some constructs name their children after another construct's unique id (a stream
 * mapping after its table), so keeping a child's logical id needs the parent's old unique id too.
 */
export function stackLevelUniqueId(stackId: string, path: readonly string[]): string {
  let scope: Construct = new App({ autoSynth: false });
  for (const id of [stackId, ...path]) scope = new Construct(scope, id);
  return Names.nodeUniqueId(scope.node);
}
