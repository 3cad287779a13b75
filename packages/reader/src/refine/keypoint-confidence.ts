/**
 * A keypoint's confidence in the front and side views from how much of its bone each shows
 * (`front`, `side` in [0, 1]): at least `min` where a view hides it (the other view places it, the
 * solver leans on that one), and `unseen` in both where neither view shows it at least `min` (its
 * place is then the refinement's prior alone). Returns `[front, side]`.
 *
 * ```ts
 * viewConfidences(0.05, 0.8, 0.1, 0); // [0.1, 0.8]
 * viewConfidences(0.05, 0.02, 0.1, 0); // [0, 0]
 * ```
 */
export function viewConfidences(front: number, side: number, min: number, unseen: number): [number, number] {
  if (front < min && side < min) return [unseen, unseen];
  return [Math.max(min, front), Math.max(min, side)];
}
