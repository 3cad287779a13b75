import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

// The rendered exam with --degrade runs end to end only on a trained creature (the lead runs it);
// here, the flag's parsing.
describe('mocap exam --degrade', () => {
  it('names an unknown preset and the presets there are', async () => {
    const r = await runCli(['exam', '--render', '--degrade', 'codec,blur'], process.env);
    expect(r.code).toBe(2);
    expect(r.err).toContain(
      'exam: --degrade: "blur" is not a preset; expected codec, resize, reframe, drift, colour, fps, ghost, lag, fade, all.',
    );
  });

  it('takes --degrade with --render only', async () => {
    const r = await runCli(['exam', '--synthetic', '--degrade', 'codec'], process.env);
    expect(r.code).toBe(2);
    expect(r.err).toContain('exam: --degrade goes with --render.');
  });
});
