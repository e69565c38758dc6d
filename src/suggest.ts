/**
 * @file "Did you mean …?": the known name closest to a misspelled one, for the binder's options and
 * the plugins' create options.
 */

/** Levenshtein distance, ignoring case. */
export function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, diagonal + (a[i - 1]!.toLowerCase() === b[j - 1]!.toLowerCase() ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length]!;
}

/** The known name nearest to `name` if it is within a third of its length in edits (at least one). */
export function closestName(name: string, known: readonly string[]): string | undefined {
  const best = known.map((n) => ({ n, d: editDistance(name, n) })).sort((x, y) => x.d - y.d)[0];
  return best !== undefined && best.d <= Math.max(1, Math.floor(best.n.length / 3)) ? best.n : undefined;
}
