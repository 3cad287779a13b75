// Detect + refine throughput in two-view frames/s on a rendered wolf clip: detect alone (decode +
// heatmap reader), refine alone (stage 2 on frames already in memory) and detect + refine (what
// `mocap capture` runs), each a median of several runs, with the backend and the load average.
// Run from the repo root (render the clip first: `pnpm mocap exam --render --creature creatures/wolf --frames 120 --seed 7`):
//   node --conditions=@mocap/source --import tsx packages/reader/bench/detect-refine-speed.ts [--frames 120] [--runs 3] [--baseline DIR] [--detect JSON] [--calib identity|auto]
// --calib auto: calibrate from the backdrop as `mocap detect` does (each frame is then resampled
// into the layout unless the calibration is the identity); identity (the default) skips it.
// --baseline DIR: another checkout of the repo (with its own `pnpm install`), measured interleaved
// with this one in the same run (before / after), and its refined keypoints compared with ours.
// --detect JSON: detectClip options for this checkout's detect + refine (e.g. '{"segments":1}' for
// one frame-to-frame pass, '{"segments":1,"peakWorker":false}' for everything on one thread).
// Each measurement runs in its own child process (`--child`), so the two checkouts never share a JIT;
// "cpu" is the child's CPU time over the measured part (all threads; detect and det+ref include
// detectClip's set-up: backend, reader, mesh, colour model), a figure the machine's load moves less.
// detect and det+ref time the whole detectClip call, set-up included (until 2026-12-04 they timed
// detectClip's own `seconds`, its decode + read loop, which left the set-up out).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values: a } = parseArgs({
  options: {
    frames: { type: 'string', default: '120' },
    runs: { type: 'string', default: '3' },
    baseline: { type: 'string' },
    modes: { type: 'string', default: 'detect,refine,both' },
    clip: { type: 'string', default: 'creatures/wolf/runs/exam/render-seed7/clip.mp4' },
    creature: { type: 'string', default: 'creatures/wolf' },
    // 'auto' calibrates from the backdrop against the creature's runs/ref/ref.png, as `mocap detect` does
    calib: { type: 'string', default: 'identity' },
    child: { type: 'boolean', default: false },
    root: { type: 'string' },
    mode: { type: 'string' },
    out: { type: 'string' },
    // detectClip's own options for this checkout's `both` runs, as JSON (e.g. '{"segments":1}';
    // the baseline's detectClip may not know them)
    detect: { type: 'string' },
  },
});
if (a.calib !== 'identity' && a.calib !== 'auto')
  throw new TypeError(`detect-refine-speed: --calib: expected identity or auto, got "${a.calib}".`);
const here = path.resolve(import.meta.dirname, '../../..');

interface Measure {
  mode: string;
  frames: number;
  seconds: number;
  refineSeconds: number;
  /** CPU seconds of the process (all threads) over the measured part. */
  cpuSeconds: number;
  backend: string;
  frontUv?: number[];
  sideUv?: number[];
}

if (a.child) await child();
else await parent();

/** One measurement with the reader of checkout `--root`; writes a {@link Measure} to `--out`. */
async function child(): Promise<void> {
  const root = path.resolve(a.root ?? here);
  const r = await import(path.join(root, 'packages/reader/src/index.ts'));
  const { Layout } = await import(path.join(root, 'packages/layout/src/index.ts'));
  const { decodeVideo } = await import(path.join(root, 'packages/media/src/index.ts'));
  const creature = path.resolve(here, a.creature as string);
  const clip = path.resolve(here, a.clip as string);
  const cj = JSON.parse(readFileSync(path.join(creature, 'creature.json'), 'utf8'));
  const info = JSON.parse(readFileSync(path.join(creature, 'runs/rigged/rig_info.json'), 'utf8'));
  const length = new Map(info.bones.map((b: { name: string; length: number }) => [b.name, b.length]));
  const keypoints = info.keypoints.map((k: { bone: string }) => ({ ...k, length: length.get(k.bone) ?? 0 }));
  const paint = cj.paint.map((g: { name: string; bones: string[] }) => ({ name: g.name, bones: g.bones }));
  const glb = path.join(creature, 'runs/rigged/rigged.glb');
  const layout = Layout.parse(cj.layout ?? {});
  const frames = Number(a.frames);
  const joints = keypoints.map((k: { name: string }) => k.name);
  const detect = {
    clip,
    reader: path.join(creature, 'reader'),
    layout,
    calib: a.calib as 'identity' | 'auto',
    ...(a.calib === 'auto' ? { ref: path.join(creature, 'runs/ref/ref.png') } : {}),
    joints,
    maxFrames: frames,
  };
  let m: Omit<Measure, 'cpuSeconds'>;
  let cpu = process.cpuUsage();
  // detect and det+ref: the whole detectClip call (set-up included: backend, reader, mesh, colour
  // model, stage 1's worker), the same for every checkout whatever its own `seconds` covers
  const t0 = performance.now();
  if (a.mode === 'detect') {
    const d = await r.detectClip(detect);
    m = {
      mode: 'detect',
      frames: d.detections.frames,
      seconds: (performance.now() - t0) / 1000,
      refineSeconds: 0,
      backend: d.backend,
    };
  } else if (a.mode === 'both') {
    const extra = a.detect ? JSON.parse(a.detect) : {};
    const d = await r.detectClip({ ...detect, ...extra, refine: { glb, keypoints, paint } });
    m = {
      mode: 'both',
      frames: d.detections.frames,
      seconds: (performance.now() - t0) / 1000,
      refineSeconds: d.refineSeconds,
      backend: d.backend,
      frontUv: Array.from(d.detections.frontUv),
      sideUv: Array.from(d.detections.sideUv),
    };
  } else {
    // Stage 2 alone: the frames decoded and the peaks read beforehand, neither timed.
    const d = await r.detectClip(detect);
    const images = [];
    for await (const f of decodeVideo(clip, { maxFrames: frames })) images.push(f);
    const mesh = await r.readSkinnedMesh(glb);
    const kp = r.rigKeypoints(mesh, keypoints, glb);
    cpu = process.cpuUsage();
    const t1 = performance.now();
    const res = await r.refineClip({
      mesh,
      paint,
      keypoints: kp,
      layout,
      colour: 'first-frame',
      frames: images,
      peaks: d.detections,
    });
    const seconds = (performance.now() - t1) / 1000;
    m = {
      mode: 'refine',
      frames: res.frames,
      seconds,
      refineSeconds: res.seconds,
      backend: 'none (plain TS)',
    };
  }
  const used = process.cpuUsage(cpu);
  await writeFile(a.out as string, JSON.stringify({ ...m, cpuSeconds: (used.user + used.system) / 1e6 }));
}

async function parent(): Promise<void> {
  const impls: [string, string][] = [['current', here]];
  if (a.baseline) impls.unshift(['baseline', path.resolve(a.baseline)]);
  const modes = (a.modes as string).split(',');
  const runs = Number(a.runs);
  const dir = await mkdtemp(path.join(tmpdir(), 'detect-refine-speed-'));
  const results = new Map<string, Measure[]>();
  const load0 = loadavg();
  console.log(
    `clip ${a.clip}, ${a.frames} frames, ${runs} runs${a.detect ? `, current detect options ${a.detect}` : ''}, load average ${load0.map((x) => x.toFixed(2)).join(' ')} at the start`,
  );
  for (let run = 0; run < runs; run++) {
    for (const mode of modes) {
      for (const [name, root] of impls) {
        const out = path.join(dir, `${name}-${mode}-${run}.json`);
        execFileSync(
          process.execPath,
          [
            '--conditions=@mocap/source',
            '--import',
            'tsx',
            ...[import.meta.filename, '--child', '--root', root, '--mode', mode, '--out', out],
            ...[
              '--frames',
              a.frames as string,
              '--clip',
              a.clip as string,
              '--creature',
              a.creature as string,
              '--calib',
              a.calib as string,
              ...(a.detect && name === 'current' ? ['--detect', a.detect] : []),
            ],
          ],
          { cwd: here, stdio: ['ignore', 'ignore', 'inherit'] },
        );
        const m: Measure = JSON.parse(await readFile(out, 'utf8'));
        const key = `${name} ${mode}`;
        results.set(key, [...(results.get(key) ?? []), m]);
        console.log(
          `  run ${run + 1} ${key.padEnd(17)} ${(m.frames / m.seconds).toFixed(2).padStart(6)} frames/s (${m.seconds.toFixed(1)} s${m.refineSeconds ? `, refine ${m.refineSeconds.toFixed(1)} s` : ''}; cpu ${((1000 * m.cpuSeconds) / m.frames).toFixed(0)} ms/frame; load ${loadavg()[0].toFixed(2)})`,
        );
      }
    }
  }
  const load1 = loadavg();
  const median = (xs: number[]) => {
    const s = [...xs].sort((x, y) => x - y);
    return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  };
  const fps = (key: string) => median((results.get(key) ?? []).map((m) => m.frames / m.seconds));
  const backend = results.get(`current ${modes.includes('both') ? 'both' : modes[0]}`)?.[0]?.backend;
  console.log(`\nbackend ${backend}; load average ${load1.map((x) => x.toFixed(2)).join(' ')} at the end`);
  const cpu = (key: string) => median((results.get(key) ?? []).map((m) => (1000 * m.cpuSeconds) / m.frames));
  console.log(
    `${'median'.padEnd(10)}${impls.map(([n]) => n.padStart(12)).join('')}${a.baseline ? '  after/before' : ''}`,
  );
  for (const mode of modes) {
    const f = impls.map(([n]) => fps(`${n} ${mode}`));
    const c = impls.map(([n]) => cpu(`${n} ${mode}`));
    const label = { detect: 'detect', refine: 'refine', both: 'det+ref' }[mode] ?? mode;
    console.log(
      label.padEnd(10) +
        f.map((x) => `${x.toFixed(2)} fr/s`.padStart(12)).join('') +
        (a.baseline ? `${(f[1] / f[0]).toFixed(2)}x`.padStart(14) : ''),
    );
    // CPU time of the whole process (every thread) per frame: what the work costs, whatever the load
    console.log(
      '  cpu'.padEnd(10) +
        c.map((x) => `${x.toFixed(0)} ms/fr`.padStart(12)).join('') +
        (a.baseline ? `${(c[1] / c[0]).toFixed(2)}x`.padStart(14) : ''),
    );
  }
  const b = results.get('baseline both')?.[0];
  const c = results.get('current both')?.[0];
  if (b?.frontUv && c?.frontUv && b.sideUv && c.sideUv) {
    let max = 0;
    let sum = 0;
    let n = 0;
    for (const [x, y] of [
      [b.frontUv, c.frontUv],
      [b.sideUv, c.sideUv],
    ] as const) {
      for (let i = 0; i + 1 < x.length; i += 2) {
        const d = Math.hypot(x[i] - y[i], x[i + 1] - y[i + 1]);
        max = Math.max(max, d);
        sum += d;
        n++;
      }
    }
    console.log(
      `refined keypoints, current vs baseline: mean ${(sum / n).toFixed(3)} px, max ${max.toFixed(3)} px`,
    );
  }
  await rm(dir, { recursive: true, force: true });
}
