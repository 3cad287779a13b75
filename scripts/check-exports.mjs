#!/usr/bin/env node
// Keeps each library's public API to what a user imports (issue 17), run by `pnpm lint`:
// - the runtime exports of each package's "." entry stay under a limit;
// - every name the entry exports (runtime) is referenced outside the package: by another
//   package's src/bench/test, apps/, scripts/, or a code block of the package's own README.
//   Names only the package's own src or tests use belong in its "./internal" subpath.
// The entries are imported from src/ (`node --conditions=@mocap/source --import tsx`, as the lint
// script runs it), so no build is needed and a stale dist/ cannot hide a new export.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Most runtime exports of each package's "." entry: reader and solver as issue 17 asks, the
 * others just above their counts when the check came in; a package not listed gets DEFAULT_LIMIT. */
const LIMITS = {
  'anim-loop': 75,
  'blender-bridge': 37,
  fal: 40,
  layout: 75,
  media: 62,
  pipeline: 16,
  reader: 60,
  'rig-propose': 19,
  solver: 35,
};
const DEFAULT_LIMIT = 40;
/**
 * Names these entries still export that nothing outside the package uses, left when the check came
 * in (issue 17 cut reader and solver; these are the other packages' share of the same work). The
 * list may only shrink: a name here that someone now uses, or that is no longer exported, fails
 * the check until it is taken off.
 */
const PENDING = {
  'anim-loop': [
    'EPSILON',
    'EULER_ORDERS',
    'FindLoopOptions',
    'SeamlessOptions',
    'SeededRandomOptions',
    'mat3',
    'mat3Copy',
    'mat3Determinant',
    'mat3FromQuat',
    'mat3Identity',
    'mat3TransformVec3',
    'mat4Copy',
    'mat4FromRotationTranslation',
    'mat4FromRows',
    'mat4GetRotation',
    'mat4GetTranslation',
    'mat4Identity',
    'mat4Multiply',
    'mat4TransformPoint',
    'mat4Transpose',
    'mirrorRestError',
    'packMotion',
    'quat',
    'quatAngle',
    'quatAngularVelocity',
    'quatCopy',
    'quatDot',
    'quatExp',
    'quatFromAxisAngle',
    'quatIdentity',
    'quatInvert',
    'quatNlerp',
    'quatNormalize',
    'quatRotateVec3',
    'quatSlerp',
    'quatToAxisAngle',
    'quatToWxyz',
    'quatTrackContinuity',
    'samplePacked',
    'sampleQuatTrack',
    'sampleTrack',
    'symEigen4',
    'timeWarpMotion',
    'timeWarpQuatTrack',
    'timeWarpTrack',
    'unpackMotion',
    'vec3',
    'vecRollToMat3',
    'warpPathToTimes',
  ],
  'blender-bridge': [
    'BlenderError',
    'DatasetPoseOptions',
    'FREE_LIMITS',
    'MIN_BLENDER_VERSION',
    'MeshBuilder',
    'PYTHON_DIR',
    'PrepResult',
    'SKIN_DEFAULT_LIMITS',
    'addMembrane',
    'addTube',
    'buildSkinRig',
    'checkGlb',
    'checkReadable',
    'cleanTemps',
    'creatureGlb',
    'creatureMesh',
    'findBlender',
    'furTexture',
    'parseBlenderVersion',
    'readGltfJoints',
    'readSkinSkeleton',
    'riggedGlbPath',
    'skinKeypoints',
    'stderrTail',
  ],
  fal: [
    'DEFAULT_LORA_INFERENCE_MODEL',
    'DEFAULT_LORA_TRAINER',
    'DEFAULT_VIDEO_MODEL',
    'FalError',
    'FalRetryOptions',
    'GenerateOptions',
    'JobState',
    'MoveName',
    'checkMp4',
    'createFal',
    'createFalFetch',
    'downloadFile',
    'explainStatus',
    'falOperation',
    'formatFalDetail',
    'makePrompt',
    'mirrorCaption',
    'modelSlug',
    'promptPath',
    'readJobState',
    'runQueueJob',
    'uploadFile',
    'videoPath',
    'videoUrlOf',
    'writeJobState',
  ],
  layout: [
    'DEFAULT_HEIGHT_M',
    'Finite',
    'Mat4Rows',
    'OutputLockHolder',
    'OutputLockedError',
    'Prep',
    'RangeDeg',
    'ReprojReport',
    'RigInfoBone',
    'ShowcaseCamera',
    'StudioColours',
    'Vec2',
    'crc32',
    'decodeDetections',
    'decodeNpy',
    'decodeNpz',
    'detectionsToArrays',
    'encodeNpy',
    'encodeNpz',
    'fileErrorFromZod',
    'formatPath',
    'frontUToX',
    'outputLockFile',
    'parseDetections',
    'shapeSize',
    'sideUToY',
    'vToZ',
    'viewsToWorld',
  ],
  media: [
    'DEGRADE_PRESETS',
    'DEGRADE_RANGES',
    'DecodeOptions',
    'DegradeColour',
    'DegradeOptions',
    'EncodeOptions',
    'FfmpegError',
    'KeypointStyle',
    'MaskStyle',
    'ProbeOptions',
    'ResizeOptions',
    'ShowcaseOptions',
    'SkeletonStyle',
    'assertRgbImage',
    'cloneImage',
    'drawDegrade',
    'drawMask',
    'drawSkeleton',
    'encodePng',
    'encodePngRgba',
    'findFfprobe',
    'gradeColour',
    'jointPalette',
    'paste',
    'readPngRgba',
    'rgbToRgba',
    'rgbaToRgb',
    'setPixel',
    'squarePad',
    'viewRect',
    'writePngRgba',
  ],
  pipeline: ['REFINED_FIT', 'degradedExams', 'describeDegrade', 'requireReader', 'requireRigged'],
  'rig-propose': [
    'CELLS_PER_LENGTH',
    'LEGS',
    'ProposalJson',
    'ProposedJoint',
    'drawProposal',
    'fitTemplate',
    'legTracks',
    'meshFeatures',
    'preppedGlb',
    'preppedGlbPath',
    'proposalPaths',
    'quadrupedTemplate',
    'readPreppedMesh',
    'unassignedRegions',
    'voxelizeSurface',
  ],
};
/** Packages that are applications, not libraries: their index is not a user API. */
const SKIP = new Set(['cli']);
const CODE_DIRS = ['src', 'bench', 'test', 'web', 'scripts'];
const CODE_EXT = /\.(?:ts|tsx|mts|mjs|js)$/;

function walk(dir, out = []) {
  if (!existsSync(dir)) return out;
  for (const entry of readdirSync(dir)) {
    if (entry === 'node_modules' || entry === 'dist' || entry.startsWith('.')) continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) walk(path, out);
    else if (CODE_EXT.test(entry)) out.push(path);
  }
  return out;
}

/** Code files of a package or app folder (src, bench, test, web, scripts). */
function codeFiles(folder) {
  return CODE_DIRS.flatMap((d) => walk(join(folder, d)));
}

/** The fenced code blocks of a README, joined. */
function readmeCode(path) {
  if (!existsSync(path)) return '';
  const blocks = readFileSync(path, 'utf8').match(/```[\s\S]*?```/g) ?? [];
  return blocks.join('\n');
}

const packagesDir = join(ROOT, 'packages');
const packages = readdirSync(packagesDir)
  .filter((name) => existsSync(join(packagesDir, name, 'package.json')))
  .map((dir) => {
    const json = JSON.parse(readFileSync(join(packagesDir, dir, 'package.json'), 'utf8'));
    return { dir, name: json.name, folder: join(packagesDir, dir) };
  });

// every file that may use a package: all packages' code, apps, root scripts
const appFolders = existsSync(join(ROOT, 'apps'))
  ? readdirSync(join(ROOT, 'apps')).map((d) => join(ROOT, 'apps', d))
  : [];
const sources = [
  ...packages.flatMap((p) => codeFiles(p.folder).map((path) => ({ path, owner: p.name }))),
  ...appFolders.flatMap((f) => codeFiles(f).map((path) => ({ path, owner: null }))),
  ...walk(join(ROOT, 'scripts')).map((path) => ({ path, owner: null })),
].map((s) => ({ ...s, text: readFileSync(s.path, 'utf8') }));

const escapeDollar = (s) => s.replace(/[$]/g, '\\$');
const failures = [];
for (const pkg of packages) {
  if (SKIP.has(pkg.dir)) continue;
  const entry = join(pkg.folder, 'src', 'index.ts');
  if (!existsSync(entry)) {
    failures.push(`${pkg.name}: ${relative(ROOT, entry)} is missing.`);
    continue;
  }
  const names = Object.keys(await import(pathToFileURL(entry).href)).sort();
  const limit = LIMITS[pkg.dir] ?? DEFAULT_LIMIT;
  if (names.length > limit) {
    failures.push(
      `${pkg.name}: ${names.length} runtime exports, limit ${limit}; move internals to its "./internal" entry.`,
    );
  }
  // files outside the package that name it in an import, plus its own README's examples
  const spec = new RegExp(`['"]${pkg.name.replace('/', '\\/')}(?:/[\\w-]+)?['"]`);
  const users = sources.filter((s) => s.owner !== pkg.name && spec.test(s.text)).map((s) => s.text);
  users.push(readmeCode(join(pkg.folder, 'README.md')));
  const pending = new Set(PENDING[pkg.dir] ?? []);
  const unused = names.filter((name) => {
    const word = new RegExp(`(?<![\\w$])${escapeDollar(name)}(?![\\w$])`);
    return !users.some((text) => word.test(text));
  });
  const fresh = unused.filter((name) => !pending.has(name));
  if (fresh.length > 0) {
    failures.push(
      `${pkg.name}: exported but used by no other package, app, script or README example ` +
        `(move to "./internal" or unexport): ${fresh.join(', ')}`,
    );
  }
  const stale = [...pending].filter((name) => !unused.includes(name));
  if (stale.length > 0) {
    failures.push(
      `${pkg.name}: in PENDING of scripts/check-exports.mjs but now used or no longer exported ` +
        `(take them off the list): ${stale.join(', ')}`,
    );
  }
  const note = pending.size > 0 ? `, ${pending.size} pending internal` : '';
  console.log(`${pkg.name}: ${names.length} runtime exports (limit ${limit}${note})`);
}
if (failures.length > 0) {
  console.error(
    `\ncheck-exports: ${failures.length} problem(s):\n${failures.map((f) => `- ${f}`).join('\n')}`,
  );
  process.exit(1);
}
console.log('check-exports: ok');
