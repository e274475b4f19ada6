/**
 * The Lambda runtime of one rehearsal function, run in its own worker thread: it imports the bundle
 * CDK made (nothing of the checkout), with only the environment the template gives the function,
 * then runs one invocation per message it gets, as the Node.js runtime does: an init failure or an
 * invocation's error is logged the way Lambda logs it and answered to the stack.
 */
import { randomUUID } from 'node:crypto';
import { registerHooks } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';

interface Setup {
  bundle: string;
  exportName: string;
  functionName: string;
  memoryMb: number;
  /** Each layer's `nodejs/node_modules` (Lambda's /opt/nodejs/node_modules), in order. */
  layerModules: string[];
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

// A package the bundle left out is looked for in the function's layers after the bundle's own
// folder, as Lambda resolves a function's imports (ES modules included) in /opt/nodejs/node_modules.
registerHooks({
  resolve(specifier, context, nextResolve) {
    try {
      return nextResolve(specifier, context);
    } catch (error) {
      const bare = !/^(\.|\/|file:|node:|data:)/.test(specifier);
      if (!bare || (error as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw error;
      for (const modules of setup.layerModules) {
        try {
          return nextResolve(specifier, {
            ...context,
            parentURL: pathToFileURL(join(modules, '..', 'index.mjs')).href,
          });
        } catch {
          // not in this layer
        }
      }
      throw error;
    }
  },
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
