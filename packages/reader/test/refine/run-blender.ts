import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Test helper: poses a skinned glTF in real Blender (its own glTF importer, one process) at the
 * `key`-th keyframe of `animation` and returns the deformed vertices in Blender's world (Z up).
 */
export function blenderPosedVertices(glb: string, animation: string, key: number) {
  const dir = mkdtempSync(join(tmpdir(), 'refine-blender-'));
  const out = join(dir, 'posed.json');
  const script = join(dirname(fileURLToPath(import.meta.url)), 'blender', 'pose_skinned.py');
  try {
    execFileSync(
      'blender',
      [
        '-b',
        '--factory-startup',
        '--python-exit-code',
        '1',
        '--python',
        script,
        '--',
        glb,
        out,
        animation,
        `${key}`,
      ],
      { stdio: 'pipe', timeout: 120_000 },
    );
    return JSON.parse(readFileSync(out, 'utf8')) as {
      action: string;
      frame: number;
      first_frame: number;
      fps: number;
      rest: number[];
      posed: number[];
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Test helper: re-exports a skinned glTF through Blender (import, then Blender's exporter at the
 * rest pose: `outGlb`) and poses every bone with seeded Euler angles; returns the angles and the
 * deformed vertices (Z up) with their rest positions, in Blender's vertex order.
 */
export function blenderEulerRoundTrip(glb: string, outGlb: string, seed: number) {
  const dir = mkdtempSync(join(tmpdir(), 'refine-blender-'));
  const out = join(dir, 'posed.json');
  const script = join(dirname(fileURLToPath(import.meta.url)), 'blender', 'export_posed.py');
  try {
    execFileSync(
      'blender',
      [
        '-b',
        '--factory-startup',
        '--python-exit-code',
        '1',
        '--python',
        script,
        '--',
        glb,
        outGlb,
        out,
        `${seed}`,
      ],
      { stdio: 'pipe', timeout: 120_000 },
    );
    return JSON.parse(readFileSync(out, 'utf8')) as {
      euler: Record<string, number[]>;
      posed: number[];
      rest: number[];
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
