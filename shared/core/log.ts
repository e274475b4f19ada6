/**
 * Structured logs through Powertools Logger: one JSON line per entry, `{"level","message",
 * "timestamp","service":"cobro", …}`, with the X-Ray trace id when Lambda gives one, every Error in
 * the attributes spelled out as `{name, location, message, stack}`, and, inside an invocation
 * (./invocation.ts), the function's name, its request id, whether it is a cold start and the
 * correlation id of what it is handling (the API Gateway request id, the EventBridge event id, the
 * schedule run's event id). Never log bodies, headers, keys or card data: callers pass ids and
 * counts, never a request or a record.
 *
 * The level is LOG_LEVEL (DEBUG, INFO, WARN, ERROR or SILENT; INFO when unset), read at each entry
 * so a test or the local stack may change it. Powertools writes through a console of its own bound
 * to stdout (DEBUG, INFO) and stderr (WARN, ERROR), so the Lambda runtime adds no prefix that would
 * break the JSON. Deployed, the library comes from the Powertools Lambda layer, not the bundle
 * (infra/bundling.ts says why).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { Logger } from '@aws-lambda-powertools/logger';

type Level = 'DEBUG' | 'INFO' | 'WARN' | 'ERROR' | 'SILENT';
const levels: readonly Level[] = ['DEBUG', 'INFO', 'WARN', 'ERROR', 'SILENT'];

const levelOf = (): Level => {
  const named = (process.env.LOG_LEVEL ?? '').toUpperCase() as Level;
  return levels.includes(named) ? named : 'INFO';
};

const base = new Logger({ serviceName: 'cobro', logLevel: levelOf() });

/**
 * The keys of the invocation running now. Kept per asynchronous context rather than appended to
 * the one logger: the local stack runs many invocations at once in one process, and each entry must
 * carry its own.
 */
export const invocationKeys = new AsyncLocalStorage<Record<string, unknown>>();

function write(level: Exclude<Level, 'SILENT'>, message: string, attributes: Record<string, unknown> = {}) {
  const wanted = levelOf();
  if (base.getLevelName() !== wanted) base.setLogLevel(wanted);
  const entry = { ...invocationKeys.getStore(), ...attributes };
  if (level === 'DEBUG') base.debug(message, entry);
  else if (level === 'INFO') base.info(message, entry);
  else if (level === 'WARN') base.warn(message, entry);
  else base.error(message, entry);
}

export const logger = {
  debug: (message: string, attributes?: Record<string, unknown>) => write('DEBUG', message, attributes),
  info: (message: string, attributes?: Record<string, unknown>) => write('INFO', message, attributes),
  warn: (message: string, attributes?: Record<string, unknown>) => write('WARN', message, attributes),
  error: (message: string, attributes?: Record<string, unknown>) => write('ERROR', message, attributes),
};
