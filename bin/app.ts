/**
 * CDK entry point: `cdk synth -c stage=dev|prod [-c mailFrom=billing@example.org]`.
 */
import { App } from 'aws-cdk-lib';
import { CobroStack, parseStage } from '../infra/cobro-stack.ts';
import { applyNag } from '../infra/nag.ts';

const app = new App();
const stage = parseStage(app.node.tryGetContext('stage'));
const mailFrom: unknown = app.node.tryGetContext('mailFrom');
new CobroStack(app, `cobro-${stage}`, {
  stage,
  mailFrom: typeof mailFrom === 'string' && mailFrom.length > 0 ? mailFrom : undefined,
});
applyNag(app);
