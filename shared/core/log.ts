/**
 * Structured logs: one JSON line per entry, `{"level","message","timestamp","service", …attributes}`,
 * with the X-Ray trace id when Lambda gives one and every Error in the attributes as `{name,
 * location, message, stack}`. Never log bodies, headers, keys or card data.
 *
 * The level is LOG_LEVEL (DEBUG, INFO, WARN, ERROR or SILENT; INFO when unset), read at each entry
 * so a test or the local stack may change it. Entries go straight to stdout (DEBUG, INFO) and
 * stderr (WARN, ERROR): through `console` the Lambda runtime would prefix each line and break its
 * JSON. A few lines of its own rather than a logging library, which would be most of a small
 * function's bundle.
 */
type Level = 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';

const ranks: Record<Level | 'SILENT', number> = { DEBUG: 8, INFO: 12, WARN: 16, ERROR: 20, SILENT: 28 };

const threshold = () => {
  const named = (process.env.LOG_LEVEL ?? '').toUpperCase();
  return Object.hasOwn(ranks, named) ? ranks[named as keyof typeof ranks] : ranks.INFO;
};

/** Where an error was thrown: `file:line` of the first frame of its stack. */
const locationOf = (stack: string | undefined) => {
  const frame = /\(?([^\s()]+):(\d+):\d+\)?$/m.exec(stack?.split('\n')[1] ?? '');
  return frame ? `${frame[1]}:${frame[2]}` : '';
};

/** JSON.stringify's replacer: errors spelled out, bigints as text, an object met again left out. */
function replacer() {
  const seen = new WeakSet<object>();
  return (_key: string, value: unknown) => {
    if (value instanceof Error) {
      return {
        name: value.name,
        location: locationOf(value.stack),
        message: value.message,
        stack: value.stack,
        ...(value.cause === undefined ? {} : { cause: value.cause }),
      };
    }
    if (typeof value === 'bigint') return value.toString();
    if (typeof value === 'object' && value !== null) {
      if (seen.has(value)) return undefined;
      seen.add(value);
    }
    return value;
  };
}

function write(level: Level, message: string, attributes: Record<string, unknown> = {}): void {
  if (ranks[level] < threshold()) return;
  const trace = /Root=([^;]+)/.exec(process.env._X_AMZN_TRACE_ID ?? '')?.[1];
  const entry = {
    level,
    message,
    timestamp: new Date().toISOString(),
    service: 'cobro',
    ...(trace ? { xray_trace_id: trace } : {}),
    ...attributes,
  };
  const line = `${JSON.stringify(entry, replacer())}\n`;
  if (ranks[level] >= ranks.WARN) process.stderr.write(line);
  else process.stdout.write(line);
}

export const logger = {
  debug: (message: string, attributes?: Record<string, unknown>) => write('DEBUG', message, attributes),
  info: (message: string, attributes?: Record<string, unknown>) => write('INFO', message, attributes),
  warn: (message: string, attributes?: Record<string, unknown>) => write('WARN', message, attributes),
  error: (message: string, attributes?: Record<string, unknown>) => write('ERROR', message, attributes),
};
