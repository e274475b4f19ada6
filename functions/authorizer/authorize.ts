/**
 * The REQUEST authorizer in front of every authenticated route. Allow carries the account in the
 * context; Deny carries the 401 body, which the ACCESS_DENIED gateway response answers verbatim.
 * API Gateway caches either for 60 s per Authorization value, so the policy covers every method.
 */
import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { authenticate } from '../../shared/auth/authenticate.ts';
import { toAuthorizerContext } from '../../shared/core/account.ts';
import { envNames } from '../../shared/core/config.ts';
import { observed } from '../../shared/core/invocation.ts';
import { stageSecret } from '../../shared/core/secrets.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { headerOf } from '../../shared/http/headers.ts';

const deps = makeDeps();
const tokenSecret = stageSecret(envNames.tokenSecret);

/** `arn:…:api-id/stage/*` from the method ARN, so a cached answer fits every route of the stage. */
function wholeStage(methodArn: string): string {
  const [apiAndStage = '', stage = ''] = methodArn.split('/');
  return `${apiAndStage}/${stage}/*`;
}

function policy(effect: 'Allow' | 'Deny', resource: string) {
  return {
    Version: '2012-10-17',
    Statement: [{ Action: 'execute-api:Invoke', Effect: effect, Resource: resource }],
  };
}

export const handler = observed(
  async (event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> => {
    const header = headerOf(event.headers, 'Authorization');
    const result = await authenticate(deps, header, tokenSecret);
    const resource = wholeStage(event.methodArn);
    if (result.ok) {
      return {
        principalId: String(result.account.developerId),
        policyDocument: policy('Allow', resource),
        context: toAuthorizerContext(result.account),
      };
    }
    return {
      principalId: 'anonymous',
      policyDocument: policy('Deny', resource),
      context: { body: JSON.stringify(result.body) },
    };
  },
  (event) => event.requestContext?.requestId,
);
