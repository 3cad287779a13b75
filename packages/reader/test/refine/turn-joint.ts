/** q[4j..] <- q[4j..] * (axis, angle) in the joint's own frame. */
export function turn(q: Float64Array, j: number, axis: [number, number, number], angle: number): void {
  const s = Math.sin(angle / 2);
  const [bx, by, bz, bw] = [axis[0] * s, axis[1] * s, axis[2] * s, Math.cos(angle / 2)];
  const o = 4 * j;
  const [ax, ay, az, aw] = [q[o], q[o + 1], q[o + 2], q[o + 3]];
  q[o] = aw * bx + ax * bw + ay * bz - az * by;
  q[o + 1] = aw * by - ax * bz + ay * bw + az * bx;
  q[o + 2] = aw * bz + ax * by - ay * bx + az * bw;
  q[o + 3] = aw * bw - ax * bx - ay * by - az * bz;
}
