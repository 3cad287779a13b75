/** The Huber weight of residual `r` at threshold `delta` (IRLS): 1 inside, `delta / |r|` beyond. */
export function huberWeight(r: number, delta: number): number {
  const a = Math.abs(r);
  return a <= delta ? 1 : delta / a;
}

/** The Huber cost of residual `r` at threshold `delta`: quadratic inside, linear beyond. */
export function huberCost(r: number, delta: number): number {
  const a = Math.abs(r);
  return a <= delta ? 0.5 * r * r : delta * (a - 0.5 * delta);
}
