/**
 * CDK entry point: `cdk synth -c stage=dev|prod`, optionally with `-c mailFrom=billing@example.org`
 * and `-c baseUrl=https://pay.example.com` (a custom domain in front of the API).
 */
import { App } from 'aws-cdk-lib';
import { CobroStack, parseBaseUrl } from '../infra/cobro-stack.ts';
import { applyNag } from '../infra/nag.ts';
import { parseStage } from '../infra/stage.ts';

const app = new App();
const stage = parseStage(app.node.tryGetContext('stage'));
const mailFrom: unknown = app.node.tryGetContext('mailFrom');
const baseUrl = parseBaseUrl(app.node.tryGetContext('baseUrl'));
new CobroStack(app, `cobro-${stage}`, {
  stage,
  mailFrom: typeof mailFrom === 'string' && mailFrom.length > 0 ? mailFrom : undefined,
  baseUrl,
});
applyNag(app);
