import type { ViewData, ViewError } from '../src/view-data.js';
import { ClipView } from './clip-view.js';
import { jointFlags } from './joint-flags.js';
import { frameMaxes, frameMeans } from './joint-stats.js';
import { JointTable } from './joint-table.js';
import { LineChart } from './line-chart.js';
import { renderRest } from './rest-view.js';
import { RigView } from './rig-view.js';
import { Timeline } from './timeline.js';

/** What the page exposes for its browser tests and the console. */
interface ViewerHandle {
  data: ViewData | null;
  timeline: Timeline | null;
  /**
   * performance.now() when the page became ready (the data, the glb and the clip's first frame
   * loaded, both drawn): ms since navigation.
   */
  readyAt: number | null;
  /**
   * The frame each side shows now (-1: none yet): the clip's image and the rig's render; `proxy`
   * when the clip shows its frame's thumbnail from a proxy strip.
   */
  shown: () => { clip: number; rig: number; proxy: boolean };
  /** Whether the clip's frames around the playhead are all loaded. */
  idle: () => boolean;
}
declare global {
  interface Window {
    viewer: ViewerHandle;
  }
}

/** How long after a drag's last step the joint table shows the frame, ms. */
const TABLE_REST_MS = 150;

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

function fail(message: string): void {
  const box = $('message');
  box.hidden = false;
  box.textContent = message;
  $('views').hidden = true;
  $('timeline').hidden = true;
  document.body.dataset.state = 'error';
}

/** The page's charts: reprojection always, confidence with det.npz, error with truth.json. */
interface Charts {
  all: LineChart[];
  conf: LineChart | null;
  error: LineChart | null;
}

function charts(data: ViewData, seek: (t: number) => void): Charts {
  const reproj = [
    new LineChart(
      'Reprojection error (px)',
      [{ label: 'mean over joints', colour: '#8cf', values: data.motion.reprojPx }],
      data.frames,
      seek,
    ),
  ];
  let conf: LineChart | null = null;
  if (data.det) {
    conf = new LineChart(
      'Confidence (mean over joints)',
      [
        { label: 'front', colour: '#9e6', values: frameMeans(data.det.frontConf) },
        { label: 'side', colour: '#e9c', values: frameMeans(data.det.sideConf) },
      ],
      data.frames,
      seek,
    );
  }
  let error: LineChart | null = null;
  if (data.truth) {
    error = new LineChart(
      'Joint error against truth.json (cm)',
      [
        { label: 'mean', colour: '#fb5', values: frameMeans(data.truth.errorCm) },
        { label: 'worst joint', colour: '#f66', values: frameMaxes(data.truth.errorCm) },
      ],
      data.frames,
      seek,
    );
  }
  return { all: [...reproj, ...(conf ? [conf] : []), ...(error ? [error] : [])], conf, error };
}

/** A selected joint's own lines on the confidence and error charts (none for null). */
function selectOnCharts(data: ViewData, c: Charts, j: number | null): void {
  const col = (rows: number[][] | undefined) => (rows ?? []).map((r) => r[j ?? 0] as number);
  const name = j === null ? '' : data.names[j];
  c.conf?.setExtra(
    j === null
      ? []
      : [
          { label: `${name} front`, colour: '#fff', values: col(data.det?.frontConf) },
          { label: `${name} side`, colour: '#aaa', values: col(data.det?.sideConf) },
        ],
  );
  c.error?.setExtra(
    j === null ? [] : [{ label: name as string, colour: '#fff', values: col(data.truth?.errorCm) }],
  );
}

/**
 * `?rest`: only the rigged.glb at rest through the layout's cameras (web/rest-view.ts); with
 * `&coat`, unpainted.
 */
async function startRest(data: ViewData): Promise<void> {
  for (const id of ['views', 'timeline', 'charts', 'table', 'notes']) $(id).hidden = true;
  const canvas = Object.assign(document.createElement('canvas'), { id: 'rest' });
  document.body.append(canvas);
  await renderRest(canvas, data, { coat: new URLSearchParams(location.search).has('coat') });
  window.viewer.readyAt = performance.now();
  document.body.dataset.state = 'ready';
}

async function start(): Promise<void> {
  window.viewer = {
    data: null,
    timeline: null,
    readyAt: null,
    shown: () => ({ clip: -1, rig: -1, proxy: false }),
    idle: () => true,
  };
  const res = await fetch('/api/view');
  const body = (await res.json()) as ViewData | ViewError;
  if ('error' in body) return fail(body.error);
  const data = body;
  window.viewer.data = data;
  if (new URLSearchParams(location.search).has('rest')) return startRest(data);
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
  const rig = new RigView($('rig'), data, jointFlags(data));
  let chartSet: Charts = { all: [], conf: null, error: null };
  const table = new JointTable(data, (j) => {
    table.select(j);
    clip.select(j);
    rig.select(j);
    selectOnCharts(data, chartSet, j);
  });
  $('table').append(table.element);
  const scrub = $<HTMLInputElement>('scrub');
  scrub.max = String(data.frames - 1);
  // Whether the frame change under way comes from a drag (the timeline's or a chart's).
  let dragging = false;
  let tableLater: ReturnType<typeof setTimeout> | undefined;
  const timeline = new Timeline(
    data.frames,
    data.fps,
    (t) => {
      scrub.value = String(t);
      $('frame').textContent = `${t} / ${data.frames - 1}`;
      clip.setFrame(t, dragging);
      rig.setFrame(t);
      // A drag updates the table's column of the frame once it rests: its relayout every step costs frames.
      clearTimeout(tableLater);
      if (dragging) tableLater = setTimeout(() => table.setFrame(timeline.frame), TABLE_REST_MS);
      else table.setFrame(t);
      for (const c of chartSet.all) c.setFrame(t);
    },
    (playing) => {
      $('play').textContent = playing ? 'pause' : 'play';
    },
  );
  window.viewer.timeline = timeline;
  const dragTo = (t: number) => {
    dragging = true;
    try {
      timeline.seek(t);
    } finally {
      dragging = false;
    }
  };
  chartSet = charts(data, dragTo);
  for (const c of chartSet.all) $('charts').append(c.figure);
  scrub.addEventListener('input', () => dragTo(Number(scrub.value)));
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
  window.viewer.shown = () => ({ clip: clip.shown, rig: rig.shown, proxy: clip.proxy });
  window.viewer.idle = () => clip.idle;
  // Ready when the glb and the first frame are in: the other frames load around the playhead.
  await Promise.all([rig.load(), clip.load()]);
  $('frame').textContent = `0 / ${data.frames - 1}`;
  clip.setFrame(0);
  rig.setFrame(0);
  table.setFrame(0);
  for (const c of chartSet.all) c.setFrame(0);
  // Both views draw in the next animation frame (their callbacks were queued first).
  await new Promise((resolve) => requestAnimationFrame(resolve));
  window.viewer.readyAt = performance.now();
  document.body.dataset.state = 'ready';
}

start().catch((err: Error) => fail(err.message));
