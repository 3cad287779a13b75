import { seededRandom } from '@mocap/anim-loop';
import {
  applyPoseStep,
  jointWorldMatrices,
  linearBlendSkin,
  poseRoot,
  type RefinePose,
  restRefinePose,
  skinningMatrices,
  surfaceSamples,
  VertexJacobians,
} from '@mocap/reader/internal';
import { describe, expect, it } from 'vitest';
import { readFox } from './fox-fixture.js';

type Mesh = Awaited<ReturnType<typeof readFox>>;

/** World positions of the Fox's vertices at `state`, and its joints' world, skinning and root matrices. */
function skinned(mesh: Mesh, state: RefinePose) {
  const nj = mesh.jointNames.length;
  const root = poseRoot(new Float64Array(16), mesh.toWorld, state);
  const world = jointWorldMatrices(new Float64Array(nj * 16), mesh, state.pose, root);
  const skin = skinningMatrices(new Float64Array(nj * 16), mesh, world);
  const verts = linearBlendSkin(new Float64Array(mesh.vertexCount * 3), mesh, skin);
  return { root, world, skin, verts };
}

/**
 * `J^T M J` and `J^T g` over random samples, views and weights, from VertexJacobians and from
 * central differences of the samples' world positions (every free parameter, the zoom's included).
 */
function normalEquations(mesh: Mesh, free: string[], zoom: boolean) {
  const rng = seededRandom(5).next;
  const joints = Int32Array.from(free.map((n) => mesh.jointNames.indexOf(n)));
  const paramOf = new Int32Array(mesh.jointNames.length).fill(-1);
  joints.forEach((j, k) => {
    paramOf[j] = 3 + 3 * k;
  });
  const P = 3 + 3 * joints.length + (zoom ? 1 : 0);
  const samples = surfaceSamples(mesh.indices, new Uint8Array(mesh.indices.length / 3), 4);
  const state = restRefinePose(mesh);
  const bend = Float64Array.from({ length: P }, (_, i) => (i < 3 ? 0.05 : 0.3) * (rng() - 0.5));
  if (zoom) bend[P - 1] = 0.03;
  applyPoseStep(state, state, joints, bend);
  const at = skinned(mesh, state);
  const vj = new VertexJacobians(mesh, samples, paramOf, P, zoom ? P - 1 : -1);
  vj.begin(at.world, at.skin, at.verts, at.root);
  const picks = Array.from({ length: 300 }, () => ({
    s: Math.floor(rng() * samples.count),
    view: rng() < 0.5 ? 0 : 1,
    m00: rng(),
    m01: rng() - 0.5,
    m11: rng() + 0.5,
    g0: rng() - 0.5,
    g1: rng() - 0.5,
  }));
  const h = new Float64Array(P * P);
  const g = new Float64Array(P);
  for (const p of picks) vj.addSample(p.s, p.view, p.m00, p.m01, p.m11, p.g0, p.g1);
  vj.finish(h, g);
  // the same from finite differences: d(sample position) / d(parameter k)
  const position = (verts: Float64Array, s: number, axis: number) => {
    let x = 0;
    for (let c = 0; c < 3; c++) x += samples.bary[3 * s + c] * verts[3 * samples.tri[3 * s + c] + axis];
    return x;
  };
  const J = picks.map(() => ({ u: new Float64Array(P), z: new Float64Array(P) }));
  const trial = restRefinePose(mesh);
  const e = new Float64Array(P);
  const eps = 1e-6;
  for (let k = 0; k < P; k++) {
    e.fill(0);
    e[k] = eps;
    const plus = skinned(mesh, applyPoseStep(trial, state, joints, e)).verts.slice();
    e[k] = -eps;
    const minus = skinned(mesh, applyPoseStep(trial, state, joints, e)).verts;
    picks.forEach((p, i) => {
      J[i].u[k] = (position(plus, p.s, p.view) - position(minus, p.s, p.view)) / (2 * eps);
      J[i].z[k] = (position(plus, p.s, 2) - position(minus, p.s, 2)) / (2 * eps);
    });
  }
  const hx = new Float64Array(P * P);
  const gx = new Float64Array(P);
  picks.forEach((p, i) => {
    const { u, z } = J[i];
    for (let a = 0; a < P; a++) {
      gx[a] += p.g0 * u[a] + p.g1 * z[a];
      for (let b = a; b < P; b++)
        hx[a * P + b] += u[a] * (p.m00 * u[b] + p.m01 * z[b]) + z[a] * (p.m01 * u[b] + p.m11 * z[b]);
    }
  });
  return { h, g, hx, gx, P };
}

/** Largest gap over the upper triangle of H and over g, relative to each one's largest entry. */
function gaps(r: ReturnType<typeof normalEquations>) {
  const { h, g, hx, gx, P } = r;
  let hMax = 0;
  let hGap = 0;
  for (let a = 0; a < P; a++)
    for (let b = a; b < P; b++) {
      hMax = Math.max(hMax, Math.abs(hx[a * P + b]));
      hGap = Math.max(hGap, Math.abs(h[a * P + b] - hx[a * P + b]));
    }
  const gMax = Math.max(...Array.from(gx, Math.abs));
  const gGap = Math.max(...Array.from(g, (x, i) => Math.abs(x - gx[i])));
  // nothing written below the diagonal (the objective mirrors the upper triangle)
  let below = 0;
  for (let a = 0; a < P; a++) for (let b = 0; b < a; b++) below = Math.max(below, Math.abs(h[a * P + b]));
  return { h: hGap / hMax, g: gGap / gMax, below };
}

describe('VertexJacobians', () => {
  it('builds J^T M J and J^T g of blended and rigid triangles as central differences do, every joint free', async () => {
    const mesh = await readFox();
    const free = mesh.jointNames.filter((n) => n !== '_rootJoint');
    const r = gaps(normalEquations(mesh, free, false));
    expect(r.h).toBeLessThan(1e-6);
    expect(r.g).toBeLessThan(1e-6);
    expect(r.below).toBe(0);
  });

  it('with the zoom free and some joints held (their columns absent), the same', async () => {
    const mesh = await readFox();
    const free = mesh.jointNames.filter((n, i) => n !== '_rootJoint' && i % 3 !== 1);
    const r = gaps(normalEquations(mesh, free, true));
    expect(r.h).toBeLessThan(1e-6);
    expect(r.g).toBeLessThan(1e-6);
    expect(r.below).toBe(0);
  });
});
