// The viewer's speed in headless Chromium (issue 19): how long a 300-frame capture takes to open,
// and how many frames a second scrubbing shows.
//
//   pnpm --filter @mocap/viewer bench [frames=300] [repeats=5]
//
// The folders are the browser test's (test/helpers/make-folders.ts) at the wolf's own 1280 x 720
// layout: a clip rendered by Blender from synthetic motion, its detections, motion.json fitted by
// the solver, and a capture folder with animation.glb from apply. They are made once under
// $TMPDIR/viewer-bench-wolf-<frames> and reused. The page is built by vite for the run, served by
// serveViewer (as `mocap view`), opened in Debian's chromium (SwiftShader WebGL, the test's launch).
//
// open, cold: a fresh server per repeat and a page opened at once, so ffmpeg's extraction of the
//   clip's frames (started when the server starts) is part of it, as after `mocap view`;
// open, warm: a second page on that server, the frames already extracted;
// both from navigation start to the page's ready (the data, the glb and the clip's first frame
//   loaded, both views drawn; the other frames load after, nearest the playhead first):
//   window.viewer.readyAt, performance.now() at that moment.
// scrub: the timeline's range input set to every frame in turn (an `input` event, as a drag
//   sends), waiting for the next requestAnimationFrame after each; fps counts only the steps
//   where, in that animation frame, both sides show the new frame (window.viewer.shown(): the
//   clip's own image, not a neighbour standing in while it loads, and the rig's render), per
//   second; steps/s counts every step. Once at once after the warm open (frames still loading),
//   once after going back to frame 0 and waiting until the frames around it are loaded (the
//   cache holds ~256 MiB of decoded frames, so a 300-frame scrub still loads some on the way).
//   rAF runs at the display's rate (60 Hz headless), which caps the figures near 60.
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveViewer } from '@mocap/viewer';
import type { Browser } from 'playwright-core';
import { build } from 'vite';
import { launchChromium } from '../test/helpers/launch-chromium.js';
import { makeFolders } from '../test/helpers/make-folders.js';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const frames = Number(process.argv[2] ?? 300);
const repeats = Number(process.argv[3] ?? 5);

/**
 * Chromium's compositing: on SwiftShader as the browser tests run it (software GL: the page's
 * compositing costs as much as the rig), and on the CPU (`--disable-gpu-compositing`, what a
 * headless chromium without a GPU can do instead; WebGL stays on SwiftShader).
 */
const MODES = [
  { name: 'SwiftShader compositing', args: [] as string[] },
  { name: 'software compositing', args: ['--disable-gpu-compositing'] },
];

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};
const fmt = (xs: number[], d = 0) =>
  `${median(xs).toFixed(d)} (${Math.min(...xs).toFixed(d)}-${Math.max(...xs).toFixed(d)})`;

/** The folders, made once per frame count (a marker file says they are complete). */
async function folders() {
  const dir = path.join(tmpdir(), `viewer-bench-wolf-${frames}`);
  const marker = path.join(dir, 'folders.json');
  if (existsSync(marker)) {
    console.log(`reusing ${dir}`);
    return JSON.parse(await readFile(marker, 'utf8'));
  }
  await rm(dir, { recursive: true, force: true });
  const t0 = performance.now();
  const f = await makeFolders(frames, { layout: 'full', dir });
  console.log(`made ${dir} in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  await writeFile(marker, JSON.stringify(f));
  return f;
}

async function openPage(browser: Browser, url: string) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForSelector('body[data-state=ready], body[data-state=error]', { timeout: 120_000 });
  const state = await page.getAttribute('body', 'data-state');
  if (state !== 'ready') throw new Error(`bench: ${url}: ${await page.textContent('#message')}`);
  const readyAt = (await page.evaluate('window.viewer.readyAt')) as number;
  return { context, page, readyAt };
}

/** What a scrub measured: frames a second both sides showed, all steps a second, the share shown from proxy thumbnails. */
interface Scrub {
  fps: number;
  steps: number;
  proxy: number;
}

/**
 * Sets the range input to every frame in turn, one rAF apart. A step counts when, in the next
 * animation frame, both sides show that frame: the clip's canvas its image (not a neighbour
 * standing in while it loads) and the rig its render (window.viewer.shown()).
 */
async function scrub(page: import('playwright-core').Page): Promise<Scrub> {
  return (await page.evaluate(`(async () => {
    const scrub = document.getElementById('scrub');
    const n = window.viewer.data.frames;
    const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
    await frame();
    let both = 0;
    let proxy = 0;
    const t0 = performance.now();
    for (let t = 1; t < n; t++) {
      scrub.value = String(t);
      scrub.dispatchEvent(new Event('input'));
      await frame();
      const shown = window.viewer.shown();
      if (shown.clip === t && shown.rig === t) {
        both++;
        if (shown.proxy) proxy++;
      }
    }
    const s = (performance.now() - t0) / 1000;
    if (window.viewer.timeline.frame !== n - 1) throw new Error('scrub: not at the last frame');
    return { fps: both / s, steps: (n - 1) / s, proxy: proxy / Math.max(1, both) };
  })()`)) as Scrub;
}

/** Back to frame 0, then waits (at most 60 s) until the frames around it are loaded. */
async function settle(page: import('playwright-core').Page): Promise<void> {
  await page.evaluate('window.viewer.timeline.seek(0)');
  await page.waitForFunction('window.viewer.idle()', undefined, { timeout: 60_000, polling: 100 });
}

async function main(): Promise<void> {
  const f = await folders();
  const webRoot = path.join(tmpdir(), `viewer-bench-web-${process.pid}`);
  await build({
    configFile: path.join(HERE, '..', 'vite.config.ts'),
    logLevel: 'warn',
    build: { outDir: webRoot },
  });
  await mkdir(webRoot, { recursive: true });
  const browsers = await Promise.all(MODES.map((m) => launchChromium(m.args)));
  console.log(
    `viewer bench: ${frames} frames, ${repeats} repeats, ${cpus().length} cores, load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const kinds = [
    ['capture (animation.glb)', f.capture, f.clip],
    ['exam (rigged.glb posed from motion.json)', f.exam, undefined],
  ] as const;
  const runs = new Map<string, { cold: number[]; warm: number[]; early: Scrub[]; cached: Scrub[] }>();
  try {
    // Interleaved: every mode and folder once per repeat, so load drifts hit them alike.
    for (let r = 0; r < repeats; r++) {
      for (const [m, mode] of MODES.entries()) {
        for (const [kind, folder, clip] of kinds) {
          const key = `${mode.name} | ${kind}`;
          const run = runs.get(key) ?? { cold: [], warm: [], early: [], cached: [] };
          runs.set(key, run);
          const server = await serveViewer({ folder, port: 0, webRoot, ...(clip ? { clip } : {}) });
          try {
            if (server.error) throw new Error(`bench: ${server.error}`);
            const browser = browsers[m] as Browser;
            const a = await openPage(browser, server.url);
            run.cold.push(a.readyAt);
            await a.context.close();
            const b = await openPage(browser, server.url);
            run.warm.push(b.readyAt);
            run.early.push(await scrub(b.page));
            await settle(b.page);
            run.cached.push(await scrub(b.page));
            await b.context.close();
          } finally {
            await server.close();
          }
        }
      }
    }
    const list = (xs: number[], d = 0) => xs.map((x) => x.toFixed(d)).join(' ');
    const scrubLine = (xs: Scrub[]) =>
      `${fmt(
        xs.map((x) => x.fps),
        1,
      )} fps both sides shown [${list(
        xs.map((x) => x.fps),
        1,
      )}], ${fmt(
        xs.map((x) => x.steps),
        1,
      )} steps/s, ${fmt(
        xs.map((x) => 100 * x.proxy),
        0,
      )}% of them from proxy thumbnails`;
    for (const [key, run] of runs) {
      console.log(
        `${key} (median (min-max) of ${repeats}):\n` +
          `  open cold ${fmt(run.cold)} ms [${list(run.cold)}], open warm ${fmt(run.warm)} ms [${list(run.warm)}]\n` +
          `  scrub at once after open: ${scrubLine(run.early)}\n` +
          `  scrub once the frames around the playhead are loaded: ${scrubLine(run.cached)}`,
      );
    }
    console.log(
      `load after: ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    await Promise.all(browsers.map((b) => b.close()));
    await rm(webRoot, { recursive: true, force: true });
  }
}

await main();
