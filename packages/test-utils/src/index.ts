// Shared test fixtures of the mocap packages (private, not published): import them in a
// package's test/ as `@mocap/test-utils` (a devDependency). Nothing here depends on a workspace
// package, so every package, anim-loop and layout included, can use it without a cycle.
export { type CopyCreatureOptions, CREATURES, copyCreature, creatureDir } from './creatures.js';
export { makeCreature, REF_PNG, removeCreatures, WOLF_WORDS } from './fal-creature.js';
export { type FalServer, type FalServerOptions, startFalServer, tinyMp4 } from './fal-server.js';
export { expectQuat, expectVec, maxAbsDiff } from './float.js';
export { QUARTER_LAYOUT } from './quarter-layout.js';
export { freePort, startRedis, type TestRedis } from './redis-server.js';
export { type TempDirs, tempDirs } from './temp-dirs.js';
