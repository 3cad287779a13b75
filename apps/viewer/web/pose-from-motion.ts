import { Euler, type Object3D, PropertyBinding, Quaternion, Vector3 } from 'three';
import type { ViewData } from '../src/view-data.js';

interface PosedBone {
  node: Object3D;
  restQ: Quaternion;
  restP: Vector3;
}

/**
 * Poses a rigged glb (bone nodes named as in Blender, axes converted to glTF's Y-up) from
 * motion.json's channels, as apply_motion keys them: each bone's pose rotation (Blender XYZ
 * Euler, bone space) after its rest rotation; the root rotated by `root_quat` about its rest head
 * and moved by `trans` (armature space, Z-up).
 */
export class MotionPoser {
  private readonly bones: (PosedBone | null)[];
  private readonly q = new Quaternion();
  private readonly e = new Euler();
  private readonly v = new Vector3();

  /** Throws when a bone of the motion is not a node of the glb. */
  constructor(
    scene: Object3D,
    private readonly motion: ViewData['motion'],
  ) {
    const missing: string[] = [];
    this.bones = motion.bones.map((name) => {
      const node = scene.getObjectByName(PropertyBinding.sanitizeNodeName(name));
      if (!node) {
        missing.push(name);
        return null;
      }
      return { node, restQ: node.quaternion.clone(), restP: node.position.clone() };
    });
    if (missing.length > 0) {
      throw new Error(
        `view: the rig's glb has no bone ${missing.slice(0, 4).join(', ')}: a motion.json of another rig?`,
      );
    }
  }

  /** Sets every bone's local transform for frame `t`. */
  pose(t: number): void {
    const euler = this.motion.euler[t] as number[][];
    this.bones.forEach((b, i) => {
      if (!b) return;
      if (i === 0) {
        const [w, x, y, z] = this.motion.rootQuat[t] as number[];
        // Blender (x, y, z) is glTF (x, z, -y): the same turn with its axis converted.
        this.q.set(x as number, z as number, -(y as number), w as number);
        b.node.quaternion.multiplyQuaternions(this.q, b.restQ);
        const [tx, ty, tz] = this.motion.trans[t] as number[];
        b.node.position.copy(b.restP).add(this.v.set(tx as number, tz as number, -(ty as number)));
        return;
      }
      const [ex, ey, ez] = euler[i] as number[];
      // Blender's XYZ mode is R = Rz Ry Rx, three's 'ZYX' order.
      this.e.set(ex as number, ey as number, ez as number, 'ZYX');
      b.node.quaternion.multiplyQuaternions(b.restQ, this.q.setFromEuler(this.e));
    });
  }
}
