import { type Layout, type Rgb, type RigBone, ViewProjection } from '@mocap/layout';
import { drawDivider, drawLine, fillCircle, type RgbImage, studioBackdrop } from '@mocap/media';
import type { PreppedMesh } from './read-prepped-mesh.js';
import { tinyDigits } from './tiny-digits.js';
import type { UnassignedRegion } from './unassigned-regions.js';

/** What {@link drawProposal} draws. */
export interface ProposalDrawing {
  mesh: PreppedMesh;
  joints: Record<string, readonly number[]>;
  confidence: Record<string, number>;
  bones: readonly RigBone[];
  regions: readonly UnassignedRegion[];
}

/** Green at confidence 1, yellow at 0.5, red at 0. */
function confidenceColour(c: number): Rgb {
  const t = Math.max(0, Math.min(1, c));
  return t >= 0.5 ? [Math.round(510 * (1 - t)), 200, 40] : [230, Math.round(400 * t), 40];
}

type View = 'front' | 'side';

/** Flat-shaded z-buffered rasterisation of the mesh into one view of the frame, in place. */
function drawMesh(img: RgbImage, mesh: PreppedMesh, proj: ViewProjection, layout: Layout, view: View): void {
  const x0 = view === 'front' ? 0 : layout.W_FRONT;
  const x1 = view === 'front' ? layout.W_FRONT : layout.WIDTH;
  const depth = new Float64Array(img.width * img.height).fill(Infinity);
  const p = mesh.positions;
  const t = mesh.triangles;
  const u = (i: number) => (view === 'front' ? proj.frontU(p[i] as number) : proj.sideU(p[i + 1] as number));
  // Front camera looks +Y (depth y), side camera looks +X (depth x).
  const d = (i: number) => (view === 'front' ? (p[i + 1] as number) : (p[i] as number));
  for (let f = 0; f < t.length; f += 3) {
    const a = (t[f] as number) * 3;
    const b = (t[f + 1] as number) * 3;
    const c = (t[f + 2] as number) * 3;
    const ax = u(a);
    const ay = proj.row(p[a + 2] as number);
    const bx = u(b);
    const by = proj.row(p[b + 2] as number);
    const cx = u(c);
    const cy = proj.row(p[c + 2] as number);
    const area = (bx - ax) * (cy - ay) - (cx - ax) * (by - ay);
    if (Math.abs(area) < 1e-12) continue;
    const e1 = [p[b]! - p[a]!, p[b + 1]! - p[a + 1]!, p[b + 2]! - p[a + 2]!];
    const e2 = [p[c]! - p[a]!, p[c + 1]! - p[a + 1]!, p[c + 2]! - p[a + 2]!];
    const n = [
      e1[1]! * e2[2]! - e1[2]! * e2[1]!,
      e1[2]! * e2[0]! - e1[0]! * e2[2]!,
      e1[0]! * e2[1]! - e1[1]! * e2[0]!,
    ];
    const nl = Math.hypot(n[0]!, n[1]!, n[2]!) || 1;
    const facing = Math.abs((view === 'front' ? n[1]! : n[0]!) / nl);
    const shade = Math.round(95 + 130 * facing);
    const xa = Math.max(x0, Math.floor(Math.min(ax, bx, cx)));
    const xb = Math.min(x1 - 1, Math.ceil(Math.max(ax, bx, cx)));
    const ya = Math.max(0, Math.floor(Math.min(ay, by, cy)));
    const yb = Math.min(img.height - 1, Math.ceil(Math.max(ay, by, cy)));
    for (let y = ya; y <= yb; y++) {
      for (let x = xa; x <= xb; x++) {
        const px = x + 0.5;
        const py = y + 0.5;
        const w1 = ((cx - bx) * (py - by) - (cy - by) * (px - bx)) / area;
        const w2 = ((ax - cx) * (py - cy) - (ay - cy) * (px - cx)) / area;
        const w3 = 1 - w1 - w2;
        if (w1 < 0 || w2 < 0 || w3 < 0) continue;
        const z = w1 * d(a) + w2 * d(b) + w3 * d(c);
        const k = y * img.width + x;
        if (z >= (depth[k] as number)) continue;
        depth[k] = z;
        img.data[k * 3] = shade;
        img.data[k * 3 + 1] = shade;
        img.data[k * 3 + 2] = Math.min(255, shade + 12);
      }
    }
  }
}

/**
 * The proposal for review: the prepped mesh in the layout's front and side views (the frame
 * every stage shares), the proposed bones over it, each joint a disc coloured by its
 * confidence (green 1, yellow 0.5, red 0) with the confidence printed beside it, and each
 * unassigned region's box in magenta.
 *
 * ```ts
 * const img = drawProposal(layout, { mesh, joints, confidence, bones: rig.bones, regions });
 * await writePng('runs/propose/proposal.png', img);
 * ```
 */
export function drawProposal(layout: Layout, d: ProposalDrawing): RgbImage {
  const img = studioBackdrop(layout);
  const proj = new ViewProjection(layout);
  const scale = Math.max(1, Math.round(layout.HEIGHT / 360));
  for (const view of ['front', 'side'] as const) {
    drawMesh(img, d.mesh, proj, layout, view);
    const uOf = (p: readonly number[]) =>
      view === 'front' ? proj.frontU(p[0] as number) : proj.sideU(p[1] as number);
    for (const r of d.regions) {
      const u0 = uOf(r.min);
      const u1 = uOf(r.max);
      const v0 = proj.row(r.min[2]);
      const v1 = proj.row(r.max[2]);
      const magenta: Rgb = [220, 60, 220];
      drawLine(img, u0, v0, u1, v0, scale, magenta);
      drawLine(img, u1, v0, u1, v1, scale, magenta);
      drawLine(img, u1, v1, u0, v1, scale, magenta);
      drawLine(img, u0, v1, u0, v0, scale, magenta);
    }
    for (const [, head, tail] of d.bones) {
      const a = d.joints[head];
      const b = d.joints[tail];
      if (!a || !b) continue;
      drawLine(
        img,
        uOf(a),
        proj.row(a[2] as number),
        uOf(b),
        proj.row(b[2] as number),
        2 * scale,
        [250, 250, 250],
      );
    }
    for (const [name, p] of Object.entries(d.joints)) {
      // Right-side joints hide behind the left ones in the side view: the left ones carry the label.
      if (view === 'side' && name.endsWith('.R')) continue;
      const c = d.confidence[name] ?? 0;
      const u = uOf(p);
      const v = proj.row(p[2] as number);
      fillCircle(img, u, v, 3 * scale, [20, 20, 20]);
      fillCircle(img, u, v, 2 * scale, confidenceColour(c));
      tinyDigits(img, u + 3 * scale, v - 6 * scale, c.toFixed(2), scale, confidenceColour(c));
    }
  }
  return drawDivider(img, layout);
}
