/**
 * The Lambda runtime of one rehearsal function, run in its own worker thread: it imports the bundle
 * CDK made (nothing of the checkout), with only the environment the template gives the function,
 * then runs one invocation per message it gets, as the Node.js runtime does: an init failure or an
 * invocation's error is logged the way Lambda logs it and answered to the stack.
 */
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';

interface Setup {
  bundle: string;
  exportName: string;
  functionName: string;
  memoryMb: number;
}

interface Invocation {
  id: number;
  event: unknown;
  deadline: number;
}

type Handler = (event: unknown, context: unknown) => Promise<unknown>;

const setup = workerData as Setup;
const port = parentPort;
if (!port) throw new Error('runtime.ts runs as a worker thread');

const describe = (error: unknown) => ({
  errorType:
    error instanceof Error ? (error.name === 'Error' ? error.constructor.name : error.name) : 'Error',
  errorMessage: error instanceof Error ? error.message : String(error),
});

let handler: Handler;
try {
  const module = (await import(pathToFileURL(setup.bundle).href)) as Record<string, unknown>;
  const found = module[setup.exportName];
  if (typeof found !== 'function') throw new Error(`${setup.exportName} is not a function of the bundle`);
  handler = found as Handler;
} catch (error) {
  const described = describe(error);
  console.error(
    `INIT_REPORT Init Phase Status: error Error Type: Runtime.ImportModuleError ${JSON.stringify(described)}`,
  );
  port.postMessage({ type: 'init-error', error: described });
  process.exit(1);
}
port.postMessage({ type: 'ready' });

port.on('message', (message: Invocation) => {
  const requestId = randomUUID();
  const fail = () => {
    throw new Error('callback-style completion is not supported');
  };
  const context = {
    callbackWaitsForEmptyEventLoop: true,
    functionName: setup.functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${process.env.AWS_REGION}:000000000000:function:${setup.functionName}`,
    memoryLimitInMB: String(setup.memoryMb),
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${setup.functionName}`,
    logStreamName: 'rehearsal',
    getRemainingTimeInMillis: () => Math.max(0, message.deadline - Date.now()),
    done: fail,
    fail,
    succeed: fail,
  };
  Promise.resolve()
    .then(() => handler(message.event, context))
    .then(
      (result) => port.postMessage({ type: 'result', id: message.id, result }),
      (error: unknown) => {
        const described = describe(error);
        console.error(
          `${new Date().toISOString()}\t${requestId}\tERROR\tInvoke Error \t${JSON.stringify(described)}`,
        );
        port.postMessage({ type: 'error', id: message.id, error: described });
      },
    );
});
