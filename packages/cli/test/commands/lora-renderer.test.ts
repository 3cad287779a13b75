// The real training-set renderer on the wolf: Blender prep + rig once, then buildLoraSet renders a
// short motion and its anim-loop mirror through apply_motion. The joints Blender posed for the
// mirrored clip must be the mirror of the original clip's joints.
import { copyFile, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { mirrorMap, seededRandom } from '@mocap/anim-loop';
import { buildRig, prepMesh } from '@mocap/blender-bridge';
import { main } from '@mocap/cli';
import { buildLoraSet, creatureMirror, LoraJson } from '@mocap/fal';
import {
  atomicWriteJson,
  CreatureJson,
  emptySyncReport,
  type MotionJson,
  type RigInfo,
  readJsonFile,
} from '@mocap/layout';
import { decodeVideo } from '@mocap/media';
import { startFalServer, tempDirs } from '@mocap/test-utils';
import { beforeAll, describe, expect, it } from 'vitest';
import { blenderClipRenderer } from '../../src/commands/lora-renderer.js';

const temp = tempDirs();

const KEY = 'lora-cli-key-3c3c:0011223344556677';

const WOLF = fileURLToPath(new URL('../../../../creatures/wolf/', import.meta.url));

/** A seeded motion on the rig: every bone within a third of its limits, the root turning and moving. */
function motionOn(info: RigInfo, frames: number, seed: number): MotionJson {
  const rng = seededRandom(seed);
  const deg = Math.PI / 180;
  const trans: [number, number, number][] = [];
  const rootQuat: [number, number, number, number][] = [];
  const euler: [number, number, number][][] = [];
  for (let t = 0; t < frames; t++) {
    trans.push([0.04 * t, -0.05 * t, 0.01 * t]);
    const yaw = 0.25 * (t + 1);
    rootQuat.push([Math.cos(yaw / 2), 0, 0, Math.sin(yaw / 2)]);
    euler.push(
      info.bones.map((b) =>
        b.name === info.root
          ? [0, 0, 0]
          : (b.limits_deg.map(([lo, hi]) => ((lo + hi) / 2 + ((hi - lo) / 3) * (rng.next() - 0.5)) * deg) as [
              number,
              number,
              number,
            ]),
      ),
    );
  }
  return {
    fps: 10,
    bones: info.bones.map((b) => b.name),
    names: info.keypoints.map((k) => k.name),
    trans,
    root_quat: rootQuat,
    euler,
    joints: trans.map(() => info.keypoints.map(() => [0, 0, 0] as [number, number, number])),
    reproj_px: { mean: 0, front: 0, side: 0, per_frame: trans.map(() => 0) },
    sync: emptySyncReport(),
  };
}

let dir: string;
let info: RigInfo;

beforeAll(async () => {
  dir = await temp.make('lora-wolf-');
  for (const f of ['creature.json', 'rig.json', 'model.glb'])
    await copyFile(path.join(WOLF, f), path.join(dir, f));
  await prepMesh({ creature: dir });
  const rig = await buildRig({ creature: dir });
  info = rig.info;
}, 300_000);

describe('blenderClipRenderer (real Blender) in the wolf LoRA set', () => {
  it("renders two-view clips; the mirrored clip's posed joints are the mirror of the original's", async () => {
    const creature = await readJsonFile('test', path.join(dir, 'creature.json'), CreatureJson);
    const motionFile = path.join(dir, 'runs', 'capture', 'trot', 'motion.json');
    const motion = motionOn(info, 3, 7);
    await atomicWriteJson(motionFile, motion);
    const set = await buildLoraSet({
      creatureDir: dir,
      moves: [{ move: 'trot', motionFile }],
      trigger: 'wolf_moves',
      renderer: blenderClipRenderer(dir, { aa: 'OFF' }),
      mirror: creatureMirror(creature),
    });
    expect(set.clips.map((c) => c.name)).toEqual(['trot', 'trot_mirrored']);
    // real clips: 3 frames of the 1280 x 720 two-view frame
    for (const c of set.clips) {
      let n = 0;
      for await (const f of decodeVideo(c.video)) {
        expect([f.width, f.height]).toEqual([1280, 720]);
        n++;
      }
      expect(n).toBe(3);
    }
    const a = JSON.parse(await readFile(set.clips[0]!.jointsFile!, 'utf8')) as number[][][];
    const b = JSON.parse(await readFile(set.clips[1]!.jointsFile!, 'utf8')) as number[][][];
    const partner = mirrorMap(motion.names, creature.mirror);
    let worst = 0;
    let moved = 0;
    for (let t = 0; t < 3; t++) {
      motion.names.forEach((n, j) => {
        const k = motion.names.indexOf(partner.get(n)!);
        const [x, y, z] = a[t]![j]!;
        const [mx, my, mz] = b[t]![k]!;
        worst = Math.max(worst, Math.hypot(mx! + x!, my! - y!, mz! - z!));
        moved = Math.max(moved, Math.abs(x!));
      });
    }
    expect(moved).toBeGreaterThan(0.05); // the pose is far from symmetric, so the check means something
    expect(worst).toBeLessThan(1e-4); // metres (Blender works in float32)

    // `mocap lora` on the same creature: the rendered clips are reused, the zip goes to (local) fal,
    // the trainer runs once, lora.json is written
    const server = await startFalServer({
      key: KEY,
      pollsToComplete: 2,
      result: (_job, s) => ({ lora_file: { url: s.addFile('lora.safetensors', new Uint8Array([7]), 'x') } }),
    });
    const mtimes = async () => Promise.all(set.clips.map(async (c) => (await stat(c.video)).mtimeMs));
    const before = await mtimes();
    try {
      let err = '';
      let out = '';
      const sink = (f: (s: string) => void) =>
        new Writable({
          write(chunk, _enc, cb) {
            f(String(chunk));
            cb();
          },
        });
      const code = await main(['lora', '--creature', dir, '--trigger', 'wolf_moves', '--poll', '0.005'], {
        stdout: sink((x) => {
          out += x;
        }),
        stderr: sink((x) => {
          err += x;
        }),
        env: { FAL_KEY: KEY, MOCAP_FAL_BASE_URL: server.url },
        cwd: dir,
      });
      expect(code).toBe(0);
      expect(await mtimes()).toEqual(before); // not rendered again
      const lora = LoraJson.parse(JSON.parse(await readFile(out.trim(), 'utf8')));
      expect(lora.training_set).toMatchObject({ clips: 2, mirrored: 1, zip_sha256: set.zipSha256 });
      expect(server.submissions()).toBe(1);
      expect(err + out).not.toContain(KEY);
    } finally {
      await server.close();
    }
  });
});
