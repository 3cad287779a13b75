import { expect } from 'vitest';

/** The largest absolute element-wise difference of two numeric arrays of the same length (NaN if either holds NaN). */
export function maxAbsDiff(actual: ArrayLike<number>, expected: ArrayLike<number>): number {
  expect(actual.length, 'length').toBe(expected.length);
  let worst = 0;
  for (let i = 0; i < expected.length; i++)
    worst = Math.max(worst, Math.abs((actual[i] as number) - (expected[i] as number)));
  return worst;
}

/** Asserts two numeric arrays agree element-wise within `tol` (absolute); the message shows both. */
export function expectVec(actual: ArrayLike<number>, expected: ArrayLike<number>, tol = 1e-12): void {
  const worst = maxAbsDiff(actual, expected);
  if (!(worst <= tol)) {
    expect.fail(
      `max |diff| ${worst} > ${tol}: got [${Array.from(actual)}], expected [${Array.from(expected)}]`,
    );
  }
}

/** Like {@link expectVec} for quaternions, treating q and -q as equal. */
export function expectQuat(actual: ArrayLike<number>, expected: ArrayLike<number>, tol = 1e-12): void {
  const d =
    (actual[0] as number) * (expected[0] as number) +
    (actual[1] as number) * (expected[1] as number) +
    (actual[2] as number) * (expected[2] as number) +
    (actual[3] as number) * (expected[3] as number);
  const s = d < 0 ? -1 : 1;
  expectVec(
    Array.from(actual, (x) => s * x),
    expected,
    tol,
  );
}
