import {
  type ClipCalibration,
  calibrationSummary,
  describeCalibration,
  describeCreatureZoom,
} from '@mocap/reader';
import { describe, expect, it } from 'vitest';

function calibration(over: Partial<ClipCalibration> = {}): ClipCalibration {
  return {
    calib: { sx: 1.5385, sy: 1.5, tx: 0.06, ty: -0.02 },
    frames: new Float64Array(8),
    drifts: false,
    drift: { zoomX: 0, zoomY: 0, slideX: 0, slideY: 0, maxPx: 0.04 },
    scale: { x: 'frame', y: 'frame' },
    refZoom: null,
    content: { x0: 0, x1: 832, y0: 0, y1: 480 },
    width: 832,
    height: 480,
    samples: [
      { frame: 0, used: false, why: 'no divider (no column darker than the ones beside it)' },
      { frame: 5, used: true, calib: { sx: 1.5385, sy: 1.5, tx: 0.06, ty: -0.02 } },
    ],
    ...over,
  };
}

describe('describeCalibration', () => {
  it('says the mapping, where its scale came from, the frames skipped and that nothing drifts', () => {
    expect(describeCalibration(calibration())).toEqual([
      "calib: 832 x 480 clip -> layout u = 1.5385 u +0.06, v = 1.5000 v -0.02 (scale from the frame's size; 1 of 2 frames measured fit)",
      'calib: skipped frame 0 (frame 0: no divider (no column darker than the ones beside it))',
      'drift: none (no frame corner moves more than 0.04 layout px)',
    ]);
  });

  it("says the creature's zoom and the ghosting it took out", () => {
    const c = calibration({
      drifts: true,
      drift: { zoomX: 1.5, zoomY: 1.5, slideX: -19, slideY: -3.6, maxPx: 12.6 },
      creatureZoom: { change: 0.0148, clear: true, applied: true },
      ghost: { blend: 0.31, peak: 0.69, steps: 5200 },
    });
    const lines = describeCalibration(c);
    expect(lines.slice(-2)).toEqual([
      "drift: the creature's size changes +1.48% through the clip where the studio shows no zoom; taken out of the calibration and the keypoints",
      'ghost: each frame holds 31% of the one before (5200 pixel steps measured); undone before reading',
    ]);
    expect(calibrationSummary(c)).toMatchObject({
      ghost: 0.31,
      creatureZoom: { change: 0.0148, clear: true, applied: true },
    });
    expect(describeCalibration(calibration({ ghost: { blend: 0, peak: 1, steps: 900 } }))).toHaveLength(3);
    // Fitted by the refinement (creatureZoom: 'follow', a drifting framing): said so.
    const followed = describeCalibration(
      calibration({
        drifts: true,
        creatureZoom: { change: -0.0152, clear: true, applied: true, followed: true },
      }),
    );
    expect(followed.at(-1)).toBe(
      "drift: the creature's size changes -1.52% through the clip where the studio shows no zoom; fitted with the rig's pose frame by frame and taken out of the calibration and the keypoints",
    );
    // The same line alone, as detect and capture print it once the clip is read (the 'zoom' event)
    expect(
      describeCreatureZoom(
        calibration({ creatureZoom: { change: -0.0152, clear: true, applied: true, followed: true } }),
      ),
    ).toEqual([followed.at(-1)]);
    expect(describeCreatureZoom(calibration({}))).toEqual([]);
    // Found but not applied (creatureZoom: 'report', or 'follow' on a still framing): said, not taken out.
    const found = describeCalibration(
      calibration({ drifts: false, creatureZoom: { change: -0.021, clear: true, applied: false } }),
    );
    expect(found.at(-1)).toBe(
      "drift: the creature's size changes -2.10% through the clip where the studio shows no zoom; not taken out (a gait or the codec can show as much; --creature-zoom apply takes it out)",
    );
    // Under the gate: nothing said.
    expect(
      describeCalibration(calibration({ creatureZoom: { change: 0.001, clear: false, applied: false } })),
    ).toHaveLength(3);
  });

  it("says how close ref.png's zoom came when the frame's size gave the scale", () => {
    const c = calibration({
      refZoom: { zoom: 1.0004, frame: 0, rms: 2, rmsAtOne: 2, creature: 1, creatureRms: 7, backdropRms: 1 },
    });
    expect(describeCalibration(c)[0]).toContain(
      "(scale from the frame's size; ref.png agrees to 0.04% on frame 0; 1 of 2",
    );
  });

  it("says a drift, ref.png's zoom and the bars", () => {
    const lines = describeCalibration(
      calibration({
        drifts: true,
        drift: { zoomX: -2.1, zoomY: -2.1, slideX: 6, slideY: 0, maxPx: 7.25 },
        scale: { x: 'ref', y: 'ref' },
        refZoom: { zoom: 0.9524, frame: 0, rms: 2, rmsAtOne: 8, creature: 1, creatureRms: 7, backdropRms: 1 },
        content: { x0: 0, x1: 832, y0: 20, y1: 460 },
        samples: [{ frame: 0, used: true, calib: { sx: 1, sy: 1, tx: 0, ty: 0 } }],
      }),
    );
    expect(lines[0]).toMatch(
      /scale from ref\.png's creature, zoom 0\.9524 on frame 0; 1 of 1 frames measured fit; picture inside bars: 832 x 440 at \(0, 20\)\)$/,
    );
    expect(lines[1]).toBe(
      'drift: zoom -2.10% u, -2.10% v, slide +6.0, +0.0 layout px from the first frame to the last (a frame corner strays up to 7.3 px); followed frame by frame (det.npz calib_frames)',
    );
    expect(calibrationSummary(calibration())).toMatchObject({
      calib: [1.5385, 1.5, 0.06, -0.02],
      drifts: false,
      skipped: [{ frame: 0, why: 'no divider (no column darker than the ones beside it)' }],
    });
  });
});
