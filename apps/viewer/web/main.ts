import type { ViewData, ViewError } from '../src/view-data.js';
import { ClipView } from './clip-view.js';
import { frameMaxes, frameMeans } from './joint-stats.js';
import { JointTable } from './joint-table.js';
import { LineChart } from './line-chart.js';
import { RigView } from './rig-view.js';
import { Timeline } from './timeline.js';

/** What the page exposes for its browser tests and the console. */
interface ViewerHandle {
  data: ViewData | null;
  timeline: Timeline | null;
}
declare global {
  interface Window {
    viewer: ViewerHandle;
  }
}

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

function fail(message: string): void {
  const box = $('message');
  box.hidden = false;
  box.textContent = message;
  $('views').hidden = true;
  $('timeline').hidden = true;
  document.body.dataset.state = 'error';
}

function charts(data: ViewData, seek: (t: number) => void): LineChart[] {
  const out = [
    new LineChart(
      'Reprojection error (px)',
      [{ label: 'mean over joints', colour: '#8cf', values: data.motion.reprojPx }],
      data.frames,
      seek,
    ),
  ];
  if (data.det) {
    out.push(
      new LineChart(
        'Confidence (mean over joints)',
        [
          { label: 'front', colour: '#9e6', values: frameMeans(data.det.frontConf) },
          { label: 'side', colour: '#e9c', values: frameMeans(data.det.sideConf) },
        ],
        data.frames,
        seek,
      ),
    );
  }
  if (data.truth) {
    out.push(
      new LineChart(
        'Joint error against truth.json (cm)',
        [
          { label: 'mean', colour: '#fb5', values: frameMeans(data.truth.errorCm) },
          { label: 'worst joint', colour: '#f66', values: frameMaxes(data.truth.errorCm) },
        ],
        data.frames,
        seek,
      ),
    );
  }
  return out;
}

async function start(): Promise<void> {
  window.viewer = { data: null, timeline: null };
  const res = await fetch('/api/view');
  const body = (await res.json()) as ViewData | ViewError;
  if ('error' in body) return fail(body.error);
  const data = body;
  window.viewer.data = data;
  $('folder').textContent = `${data.kind}: ${data.folder}`;
  for (const d of data.downloads) {
    const a = document.createElement('a');
    a.href = d.url;
    a.download = d.label;
    a.textContent = d.label;
    $('downloads').append(a);
  }
  for (const n of data.notes)
    $('notes').append(Object.assign(document.createElement('li'), { textContent: n }));
  const clip = new ClipView($('clip'), data);
  const rig = new RigView($('rig'), data);
  const table = new JointTable(data);
  $('table').append(table.element);
  const scrub = $<HTMLInputElement>('scrub');
  scrub.max = String(data.frames - 1);
  let chartList: LineChart[] = [];
  const timeline = new Timeline(
    data.frames,
    data.fps,
    (t) => {
      scrub.value = String(t);
      $('frame').textContent = `${t} / ${data.frames - 1}`;
      clip.setFrame(t);
      rig.setFrame(t);
      table.setFrame(t);
      for (const c of chartList) c.setFrame(t);
    },
    (playing) => {
      $('play').textContent = playing ? 'pause' : 'play';
    },
  );
  window.viewer.timeline = timeline;
  chartList = charts(data, (t) => timeline.seek(t));
  for (const c of chartList) $('charts').append(c.figure);
  scrub.addEventListener('input', () => timeline.seek(Number(scrub.value)));
  $('play').addEventListener('click', () => timeline.toggle());
  $('prev').addEventListener('click', () => timeline.step(-1));
  $('next').addEventListener('click', () => timeline.step(1));
  $<HTMLSelectElement>('speed').addEventListener('change', (e) => {
    timeline.speed = Number((e.target as HTMLSelectElement).value);
  });
  for (const what of ['joints', 'grid'] as const) {
    const box = $<HTMLInputElement>(`show-${what}`);
    box.addEventListener('change', () => rig.show({ [what]: box.checked }));
  }
  document.addEventListener('keydown', (e) => {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
    if (e.key === ' ') timeline.toggle();
    else if (e.key === 'ArrowLeft') timeline.step(-1);
    else if (e.key === 'ArrowRight') timeline.step(1);
    else return;
    e.preventDefault();
  });
  await Promise.all([rig.load(), clip.preload()]);
  $('frame').textContent = `0 / ${data.frames - 1}`;
  clip.setFrame(0);
  rig.setFrame(0);
  table.setFrame(0);
  for (const c of chartList) c.setFrame(0);
  document.body.dataset.state = 'ready';
}

start().catch((err: Error) => fail(err.message));
