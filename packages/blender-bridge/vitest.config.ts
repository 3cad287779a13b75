import { mocapVitestConfig } from '@mocap/vitest-config';

// Real Blender runs: allow for a loaded machine (each test still shares one run where it can).
export default mocapVitestConfig({ testTimeout: 120_000, hookTimeout: 300_000 });
