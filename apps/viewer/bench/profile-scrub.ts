// Where the viewer's time goes while opening and scrubbing (issue 19): a Chrome trace of the
// bench's 300-frame capture, summed per thread and event name, and a CPU profile of the page's
// main thread summed per function (self time).
//
//   pnpm --filter @mocap/viewer exec node --conditions=@mocap/source --import tsx bench/profile-scrub.ts [frames=300] [steps=60]
import { readFile, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveViewer } from '@mocap/viewer';
import { build } from 'vite';
import { launchChromium } from '../test/helpers/launch-chromium.js';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const frames = Number(process.argv[2] ?? 300);
const steps = Number(process.argv[3] ?? 60);

interface TraceEvent {
  name: string;
  ph: string;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string };
}
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

/** Total duration (ms) of complete events per thread name and event name, the top `n`. */
function traceSummary(events: TraceEvent[], n = 25): string[] {
  const threads = new Map<string, string>();
  for (const e of events) {
    if (e.ph === 'M' && e.name === 'thread_name') threads.set(`${e.pid}:${e.tid}`, e.args?.name ?? '?');
  }
  const sums = new Map<string, number>();
  for (const e of events) {
    if (e.ph !== 'X' || !e.dur) continue;
    const key = `${threads.get(`${e.pid}:${e.tid}`) ?? e.tid} | ${e.name}`;
    sums.set(key, (sums.get(key) ?? 0) + e.dur / 1000);
  }
  return [...sums]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, v]) => `${v.toFixed(0).padStart(7)} ms  ${k}`);
}

/** Self time (ms) per function of a CPU profile, the top `n`. */
function profileSummary(
  profile: { nodes: ProfileNode[]; samples?: number[]; timeDeltas?: number[] },
  n = 25,
): string[] {
  const byId = new Map(profile.nodes.map((x) => [x.id, x]));
  const sums = new Map<string, number>();
  (profile.samples ?? []).forEach((id, i) => {
    const f = byId.get(id)?.callFrame;
    const key = f ? `${f.functionName || '(anon)'} ${path.basename(f.url)}:${f.lineNumber}` : '?';
    sums.set(key, (sums.get(key) ?? 0) + (profile.timeDeltas?.[i] ?? 0) / 1000);
  });
  return [...sums]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, v]) => `${v.toFixed(0).padStart(7)} ms  ${k}`);
}

async function main(): Promise<void> {
  const f = JSON.parse(
    await readFile(path.join(tmpdir(), `viewer-bench-wolf-${frames}`, 'folders.json'), 'utf8'),
  );
  const webRoot = path.join(tmpdir(), `viewer-profile-web-${process.pid}`);
  await build({
    configFile: path.join(HERE, '..', 'vite.config.ts'),
    logLevel: 'warn',
    build: { outDir: webRoot },
  });
  const browser = await launchChromium();
  const server = await serveViewer({ folder: f.capture, port: 0, webRoot, clip: f.clip });
  console.log(
    `load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
    await browser.startTracing(page, {
      categories: (process.env.CATS ?? 'devtools.timeline,gpu,blink,v8').split(','),
    });
    await page.goto(server.url);
    await page.waitForSelector('body[data-state=ready]', { timeout: 120_000 });
    console.log(`ready at ${(await page.evaluate('window.viewer.readyAt')) as number} ms`);
    let trace = JSON.parse((await browser.stopTracing()).toString()).traceEvents as TraceEvent[];
    let prof = (await cdp.send('Profiler.stop')).profile;
    console.log('--- open: trace (ms per thread | event)');
    for (const l of traceSummary(trace)) console.log(l);
    console.log('--- open: page main thread, self time per function');
    for (const l of profileSummary(prof)) console.log(l);
    await page.waitForTimeout(3000);
    await cdp.send('Profiler.start');
    await browser.startTracing(page, {
      categories: (process.env.CATS ?? 'devtools.timeline,gpu,blink,v8').split(','),
    });
    const fps = (await page.evaluate(`(async () => {
      const scrub = document.getElementById('scrub');
      const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
      await frame();
      const t0 = performance.now();
      for (let t = 1; t <= ${steps}; t++) {
        scrub.value = String(t);
        scrub.dispatchEvent(new Event('input'));
        await frame();
      }
      return ${steps} / ((performance.now() - t0) / 1000);
    })()`)) as number;
    const raw = (await browser.stopTracing()).toString();
    if (process.env.TRACE_OUT) await (await import('node:fs/promises')).writeFile(process.env.TRACE_OUT, raw);
    trace = JSON.parse(raw).traceEvents as TraceEvent[];
    prof = (await cdp.send('Profiler.stop')).profile;
    console.log(`--- scrub ${steps} frames: ${fps.toFixed(1)} steps/s; trace (ms per thread | event)`);
    for (const l of traceSummary(trace, 40)) console.log(l);
    console.log('--- scrub: page main thread, self time per function');
    for (const l of profileSummary(prof)) console.log(l);
    await context.close();
  } finally {
    await server.close();
    await browser.close();
    await rm(webRoot, { recursive: true, force: true });
  }
}

await main();
