import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Runs `blender/<script>` (beside this file) in real Blender (`BLENDER`, else `blender` on PATH)
 * with the arguments `args(out)` gives for a JSON output path, and returns what it wrote there.
 */
function runBlenderJson<T>(script: string, args: (out: string) => string[]): T {
  const dir = mkdtempSync(join(tmpdir(), 'refine-blender-'));
  const out = join(dir, 'out.json');
  const file = join(dirname(fileURLToPath(import.meta.url)), 'blender', script);
  try {
    execFileSync(
      process.env.BLENDER || 'blender',
      ['-b', '--factory-startup', '--python-exit-code', '1', '--python', file, '--', ...args(out)],
      { stdio: 'pipe', timeout: 120_000 },
    );
    return JSON.parse(readFileSync(out, 'utf8')) as T;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Test helper: poses a skinned glTF in real Blender (its own glTF importer, one process) at the
 * `key`-th keyframe of `animation` and returns the deformed vertices in Blender's world (Z up).
 */
export function blenderPosedVertices(glb: string, animation: string, key: number) {
  return runBlenderJson<{
    action: string;
    frame: number;
    first_frame: number;
    fps: number;
    rest: number[];
    posed: number[];
  }>('pose_skinned.py', (out) => [glb, out, animation, `${key}`]);
}

/**
 * Test helper: re-exports a skinned glTF through Blender (import, then Blender's exporter at the
 * rest pose: `outGlb`) and poses every bone with seeded Euler angles; returns the angles and the
 * deformed vertices (Z up) with their rest positions, in Blender's vertex order.
 */
export function blenderEulerRoundTrip(glb: string, outGlb: string, seed: number) {
  return runBlenderJson<{ euler: Record<string, number[]>; posed: number[]; rest: number[] }>(
    'export_posed.py',
    (out) => [glb, outGlb, out, `${seed}`],
  );
}
