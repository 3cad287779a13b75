import {
  AmbientLight,
  AnimationMixer,
  Box3,
  BufferAttribute,
  BufferGeometry,
  Color,
  DirectionalLight,
  GridHelper,
  InstancedMesh,
  LineBasicMaterial,
  LineSegments,
  LoopOnce,
  Matrix4,
  MeshBasicMaterial,
  type Object3D,
  PerspectiveCamera,
  Scene,
  SphereGeometry,
  Vector3,
  WebGLRenderer,
} from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import type { ViewData } from '../src/view-data.js';
import type { JointFlag } from './joint-flags.js';
import { MotionPoser } from './pose-from-motion.js';
import { softwareWebGL } from './software-webgl.js';

/** The rig view's background (the page's tests look for pixels that differ from it). */
const RIG_BACKGROUND = 0x2a2e35;

/** Joint marker colours: fine, low confidence, large error, selected. */
const MARK = {
  ok: new Color(0x66ff99),
  low: new Color(0xffcc44),
  bad: new Color(0xff4444),
  selected: new Color(0xffffff),
};

/** World (Z-up, metres) to three's Y-up. */
const toThree = (p: number[]) => [p[0] as number, p[2] as number, -(p[1] as number)];

function skeletonLines(data: ViewData, joints: number[][][], color: number): LineSegments {
  const geom = new BufferGeometry();
  geom.setAttribute('position', new BufferAttribute(new Float32Array(data.edges.length * 6), 3));
  const lines = new LineSegments(geom, new LineBasicMaterial({ color, depthTest: false }));
  lines.renderOrder = 10;
  lines.userData.joints = joints;
  return lines;
}

function setLines(lines: LineSegments, data: ViewData, t: number): void {
  const joints = (lines.userData.joints as number[][][])[t] as number[][];
  const pos = lines.geometry.getAttribute('position') as BufferAttribute;
  data.edges.forEach(([a, b], i) => {
    pos.array.set(toThree(joints[a] as number[]), i * 6);
    pos.array.set(toThree(joints[b] as number[]), i * 6 + 3);
  });
  pos.needsUpdate = true;
  lines.geometry.computeBoundingSphere();
}

/** Device pixels per CSS pixel at most: SwiftShader's (and a slow GPU's) cost grows with pixels. */
const MAX_PIXEL_RATIO = 1;

/**
 * The orbitable 3D view: the glb posed at a frame, the fitted (and true) joints as lines. It
 * renders once per animation frame when something changed (a frame, an orbit, a selection), at
 * its box's size.
 */
export class RigView {
  readonly renderer: WebGLRenderer;
  /** The frame the canvas shows (-1: not rendered yet). */
  shown = -1;
  private pending = false;
  private readonly scene = new Scene();
  private readonly camera = new PerspectiveCamera(35, 4 / 3, 0.01, 100);
  private readonly controls: OrbitControls;
  private mixer: AnimationMixer | null = null;
  private poser: MotionPoser | null = null;
  private readonly lines: LineSegments[] = [];
  private readonly grid = new GridHelper(4, 20, 0x555a64, 0x3a3e46);
  private readonly marks: InstancedMesh;
  private selected: number | null = null;
  private frame = 0;
  private readonly m = new Matrix4();

  constructor(
    private readonly canvas: HTMLCanvasElement,
    private readonly data: ViewData,
    private readonly flags: JointFlag[][],
  ) {
    this.renderer = new WebGLRenderer({ canvas, antialias: !softwareWebGL() });
    this.renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, MAX_PIXEL_RATIO));
    this.scene.background = new Color(RIG_BACKGROUND);
    this.scene.add(new AmbientLight(0xffffff, 1.2));
    const sun = new DirectionalLight(0xffffff, 2.2);
    sun.position.set(2, 4, 3);
    this.scene.add(sun);
    this.scene.add(this.grid);
    this.controls = new OrbitControls(this.camera, canvas);
    this.controls.addEventListener('change', () => this.invalidate());
    this.lines.push(skeletonLines(data, data.motion.joints, 0x66ff99));
    if (data.truth) this.lines.push(skeletonLines(data, data.truth.joints, 0xff8866));
    for (const l of this.lines) this.scene.add(l);
    this.marks = new InstancedMesh(
      new SphereGeometry(0.012, 10, 6),
      new MeshBasicMaterial({ depthTest: false }),
      data.names.length,
    );
    this.marks.renderOrder = 11;
    this.scene.add(this.marks);
    new ResizeObserver(() => this.resize()).observe(canvas);
    this.resize();
  }

  /** Loads the glb (animation.glb plays its own keys; rigged.glb is posed from motion.json). */
  async load(): Promise<void> {
    const rig = this.data.rig;
    let root: Object3D | null = null;
    if (rig) {
      const gltf = await new GLTFLoader().loadAsync(rig.url).catch((err: Error) => {
        throw new Error(`view: ${rig.url}: cannot load the glb (${err.message}).`);
      });
      root = gltf.scene;
      this.scene.add(root);
      const clip = gltf.animations[0];
      if (rig.animated && clip) {
        this.mixer = new AnimationMixer(root);
        // Play once, clamped: a looping action wraps the last frame's time back to the first.
        const action = this.mixer.clipAction(clip).setLoop(LoopOnce, 1);
        action.clampWhenFinished = true;
        action.play();
      } else {
        this.poser = new MotionPoser(root, this.data.motion);
      }
    }
    this.frameCamera(root);
  }

  private frameCamera(root: Object3D | null): void {
    const box = new Box3();
    if (root) box.setFromObject(root);
    for (const p of this.data.motion.joints[0] ?? []) box.expandByPoint(new Vector3(...toThree(p)));
    const centre = box.getCenter(new Vector3());
    const size = box.getSize(new Vector3()).length();
    // A 3/4 view from the creature's front-left (it faces -Y, three's +Z).
    this.camera.position.copy(centre).add(new Vector3(0.9, 0.45, 1.1).multiplyScalar(size * 1.05));
    this.controls.target.copy(centre);
    this.controls.update();
  }

  /** Poses everything at frame `t` and draws. */
  setFrame(t: number): void {
    if (this.mixer) this.mixer.setTime(t / this.data.fps);
    this.poser?.pose(t);
    for (const l of this.lines) setLines(l, this.data, t);
    this.frame = t;
    this.placeMarks();
    this.invalidate();
  }

  /** Marks joint `j` (or none) larger and white. */
  select(j: number | null): void {
    this.selected = j;
    this.placeMarks();
    this.invalidate();
  }

  /** The fitted joints as spheres coloured by their flag at the current frame. */
  private placeMarks(): void {
    const joints = this.data.motion.joints[this.frame] ?? [];
    joints.forEach((p, j) => {
      const [x, y, z] = toThree(p);
      const big = j === this.selected ? 2 : 1;
      this.m.makeScale(big, big, big).setPosition(x as number, y as number, z as number);
      this.marks.setMatrixAt(j, this.m);
      const flag = this.flags[this.frame]?.[j] ?? null;
      this.marks.setColorAt(j, j === this.selected ? MARK.selected : MARK[flag ?? 'ok']);
    });
    this.marks.instanceMatrix.needsUpdate = true;
    if (this.marks.instanceColor) this.marks.instanceColor.needsUpdate = true;
    this.marks.computeBoundingSphere();
  }

  /** Shows or hides the joints' lines (fitted, true) and the ground grid. */
  show(what: { joints?: boolean; grid?: boolean }): void {
    if (what.joints !== undefined) for (const l of [...this.lines, this.marks]) l.visible = what.joints;
    if (what.grid !== undefined) this.grid.visible = what.grid;
    this.invalidate();
  }

  private resize(): void {
    const w = this.canvas.clientWidth || 640;
    const h = this.canvas.clientHeight || 480;
    this.renderer.setSize(w, h, false);
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
    this.invalidate();
  }

  /** Renders once at the next animation frame. */
  private invalidate(): void {
    if (this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => {
      this.pending = false;
      this.renderer.render(this.scene, this.camera);
      this.shown = this.frame;
    });
  }
}
