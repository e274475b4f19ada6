/** The nearest of some names to a mistyped one, for "did you mean" hints on the command line. */

/** Levenshtein distance: the fewest single-character inserts, deletes and changes from a to b. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const change = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + change,
      );
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/**
 * The name among `names` nearest to `typed`, when it is near enough to be a typo of it (at most a
 * third of its letters wrong, and never fewer than 2 allowed); undefined otherwise.
 */
export function nearest(typed: string, names: readonly string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const name of names) {
    const distance = editDistance(typed.toLowerCase(), name.toLowerCase());
    if (!best || distance < best.distance) best = { name, distance };
  }
  const allowed = Math.max(2, Math.floor(Math.max(typed.length, best?.name.length ?? 0) / 3));
  return best && best.distance <= allowed ? best.name : undefined;
}

/** `; did you mean "x"?` when a name is near enough, else nothing. */
export const didYouMean = (typed: string, names: readonly string[]) => {
  const name = nearest(typed, names);
  return name === undefined ? '' : `; did you mean "${name}"?`;
};
