import {
  AmbientLight,
  DirectionalLight,
  type Material,
  type Mesh,
  type MeshStandardMaterial,
  type Object3D,
  OrthographicCamera,
  Scene,
  WebGLRenderer,
} from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import type { ViewData } from '../src/view-data.js';

/**
 * The page's `?rest` mode: the creature's rigged.glb in its rest pose through the layout's two
 * orthographic cameras, front view left and side view right, into a WIDTH x HEIGHT canvas with a
 * transparent background, as ref.png frames it (mocap_blender.setup_cameras): the front camera
 * looks along +Y from -Y (column u grows with world x), the side camera along +X from -X (u grows
 * with -y), both centred on the frame's middle row, M_PER_PX metres a pixel. The browser test
 * compares its paint with ref.png's. With `coat`, every face wears the coat's material without the
 * vertex colours (the creature unpainted, lit alike): what each pixel would show without paint.
 */
export async function renderRest(
  canvas: HTMLCanvasElement,
  data: ViewData,
  opts: { coat?: boolean } = {},
): Promise<void> {
  if (!data.riggedGlb) throw new Error('view: ?rest: the creature has no rigged.glb (run `mocap rig`).');
  const L = data.layout;
  const m = L.M_PER_PX;
  canvas.style.width = `${L.WIDTH}px`;
  canvas.style.height = `${L.HEIGHT}px`;
  const renderer = new WebGLRenderer({ canvas, antialias: true, alpha: true, preserveDrawingBuffer: true });
  renderer.setPixelRatio(1);
  renderer.setSize(L.WIDTH, L.HEIGHT, false);
  renderer.setClearColor(0x000000, 0);
  const scene = new Scene();
  scene.add(new AmbientLight(0xffffff, 1.2));
  const sun = new DirectionalLight(0xffffff, 2.2);
  sun.position.set(-2, 4, 3);
  scene.add(sun);
  const gltf = await new GLTFLoader().loadAsync(data.riggedGlb);
  if (opts.coat) unpaint(gltf.scene);
  scene.add(gltf.scene);
  // World (x, y, z), Z up, is three's (x, z, -y); the camera's z: the middle row's height.
  const zc = (L.GROUND_V - L.HEIGHT / 2) * m;
  const dist = 60;
  const camera = (w: number) =>
    new OrthographicCamera((-w / 2) * m, (w / 2) * m, (L.HEIGHT / 2) * m, (-L.HEIGHT / 2) * m, 0.1, 2 * dist);
  const front = camera(L.W_FRONT);
  front.position.set(L.FRONT_CX, zc, dist);
  front.lookAt(L.FRONT_CX, zc, 0);
  const side = camera(L.W_SIDE);
  side.position.set(-dist, zc, -L.SIDE_CY);
  side.lookAt(0, zc, -L.SIDE_CY);
  renderer.setScissorTest(true);
  for (const [cam, x, w] of [
    [front, 0, L.W_FRONT],
    [side, L.W_FRONT, L.W_SIDE],
  ] as const) {
    renderer.setViewport(x, 0, w, L.HEIGHT);
    renderer.setScissor(x, 0, w, L.HEIGHT);
    renderer.render(scene, cam);
  }
}

/**
 * Gives every mesh the coat's material (the first textured one, else the first without vertex
 * colours) with vertex colours off, each keeping its own sidedness.
 */
function unpaint(root: Object3D): void {
  const meshes: Mesh[] = [];
  root.traverse((o) => {
    if ((o as Mesh).isMesh) meshes.push(o as Mesh);
  });
  const all = meshes.flatMap((m) => (Array.isArray(m.material) ? m.material : [m.material]));
  const coat = all.find((m) => (m as MeshStandardMaterial).map) ?? all.find((m) => !m.vertexColors) ?? all[0];
  if (!coat) return;
  for (const mesh of meshes) {
    const own = (Array.isArray(mesh.material) ? mesh.material[0] : mesh.material) as Material;
    const m = coat.clone();
    m.vertexColors = false;
    m.side = own.side;
    mesh.material = m;
  }
}
