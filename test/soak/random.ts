/** The soak's random choices. */

/** A choice and its weight. */
export type Weighted<T> = readonly [T, number];

/** One of `choices`, each as likely as its weight. */
export function pick<T>(choices: readonly Weighted<T>[]): T {
  const total = choices.reduce((sum, [, weight]) => sum + weight, 0);
  let at = Math.random() * total;
  for (const [choice, weight] of choices) {
    at -= weight;
    if (at < 0) return choice;
  }
  return (choices[choices.length - 1] as Weighted<T>)[0];
}

/** An integer from `low` to `high`, both included. */
export const randomInt = (low: number, high: number) => low + Math.floor(Math.random() * (high - low + 1));

/** True with probability `p`. */
export const chance = (p: number) => Math.random() < p;

/** One element of a non-empty array. */
export const oneOf = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)] as T;

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
