/**
 * Tees this process's stdout and stderr into `onChunk` while still writing them: what a stack
 * running in the test's own process logs (and what a deployed function would send to CloudWatch).
 * Answers what puts the streams back.
 */
export function teeOutput(onChunk: (chunk: string) => void): () => void {
  const writes = {
    out: process.stdout.write.bind(process.stdout),
    err: process.stderr.write.bind(process.stderr),
  };
  const tap =
    (write: typeof writes.out) =>
    (chunk: unknown, ...rest: unknown[]): boolean => {
      onChunk(String(chunk));
      return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
    };
  process.stdout.write = tap(writes.out) as typeof process.stdout.write;
  process.stderr.write = tap(writes.err) as typeof process.stderr.write;
  return () => {
    process.stdout.write = writes.out;
    process.stderr.write = writes.err;
  };
}
