import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodePngRgba } from '@mocap/media';
import { serveViewer, type ViewerServer } from '@mocap/viewer';
import type { Browser, Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './helpers/launch-chromium.js';
import { makeFolders, type TestFolders } from './helpers/make-folders.js';

const HERE = fileURLToPath(new URL('.', import.meta.url));
/** Screenshots of each case, for a person to look at (and the README's). */
const OUTPUT = path.join(HERE, '..', 'test-output');
/** The rig view's background, RIG_BACKGROUND in web/rig-view.ts. */
const BACKGROUND = [0x2a, 0x2e, 0x35];

/** A JPEG's size from its start-of-frame marker. */
function jpegSize(jpg: Buffer): { width: number; height: number } {
  for (let i = 2; i + 9 < jpg.length; ) {
    const marker = jpg[i + 1] as number;
    if (marker >= 0xc0 && marker <= 0xc2)
      return { height: jpg.readUInt16BE(i + 5), width: jpg.readUInt16BE(i + 7) };
    i += 2 + jpg.readUInt16BE(i + 2);
  }
  throw new Error('no start-of-frame marker');
}

/** Fraction of the PNG's pixels farther than 40 (sum over RGB) from the rig view's background. */
function offBackground(png: Buffer): number {
  const img = decodePngRgba(png);
  let n = 0;
  for (let i = 0; i < img.width * img.height; i++) {
    const d = [0, 1, 2].reduce(
      (s, c) => s + Math.abs((img.data[i * 4 + c] as number) - (BACKGROUND[c] as number)),
      0,
    );
    if (d > 40) n++;
  }
  return n / (img.width * img.height);
}

async function open(page: Page, url: string): Promise<string> {
  await page.goto(url);
  await page.waitForSelector('body[data-state=ready], body[data-state=error]', { timeout: 90_000 });
  return (await page.getAttribute('body', 'data-state')) as string;
}

async function seek(page: Page, t: number, frames: number): Promise<void> {
  await page.locator('#scrub').fill(String(t));
  await page.waitForFunction(`document.getElementById('frame').textContent === '${t} / ${frames - 1}'`);
}

describe('the viewer in headless Chromium (SwiftShader WebGL), on a rendered 6-frame capture and exam', () => {
  let folders: TestFolders;
  let webRoot = '';
  let browser: Browser;
  const servers: ViewerServer[] = [];
  const serve = async (folder: string, clip?: string) => {
    const s = await serveViewer({ folder, port: 0, webRoot, ...(clip ? { clip } : {}) });
    servers.push(s);
    return s;
  };

  beforeAll(async () => {
    await mkdir(OUTPUT, { recursive: true });
    webRoot = path.join(tmpdir(), `viewer-web-${process.pid}`);
    // The page as it is now, not a stale dist/: vite builds it for this run.
    await build({
      configFile: path.join(HERE, '..', 'vite.config.ts'),
      logLevel: 'warn',
      build: { outDir: webRoot },
    });
    folders = await makeFolders(6);
    browser = await launchChromium();
  }, 600_000);
  afterAll(async () => {
    await browser?.close();
    for (const s of servers) await s.close();
    await rm(webRoot, { recursive: true, force: true });
    if (folders) await rm(folders.creature, { recursive: true, force: true });
  });

  it('a capture (animation.glb, --clip): the rig is drawn, scrubbing changes both views', async () => {
    const s = await serve(folders.capture, folders.clip);
    expect(s.error).toBeNull();
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    expect(await open(page, s.url)).toBe('ready');
    expect(await page.evaluate('window.viewer.data.kind')).toBe('capture');
    await page.screenshot({ path: path.join(OUTPUT, 'capture.png'), fullPage: true });
    await page.uncheck('#show-joints');
    await page.uncheck('#show-grid');
    const rig0 = await page.locator('#rig').screenshot();
    // The mesh alone (no grid, no joint lines) covers part of the view.
    expect(offBackground(rig0)).toBeGreaterThan(0.01);
    const clip0 = await page.locator('#clip').screenshot();
    await seek(page, folders.frames - 1, folders.frames);
    // A drag shows proxies while it moves; once it rests, the frame's own full image.
    await page.waitForFunction(
      `window.viewer.idle() && window.viewer.shown().clip === ${folders.frames - 1} && !window.viewer.shown().proxy`,
    );
    const rig1 = await page.locator('#rig').screenshot();
    const clip1 = await page.locator('#clip').screenshot();
    expect(rig1.equals(rig0)).toBe(false);
    expect(clip1.equals(clip0)).toBe(false);
    await page.screenshot({ path: path.join(OUTPUT, 'capture-last-frame.png'), fullPage: true });
    const links = await page.locator('#downloads a').allTextContents();
    expect(links).toEqual(expect.arrayContaining(['animation.glb', 'animation.bvh']));
    // The proxy strip: the 6 frames' thumbnails in one 5 x 5 image of 256 x 144 cells.
    expect(await page.evaluate('window.viewer.data.video.strip.count')).toBe(1);
    const strip = await fetch(`${s.url}strips/0.jpg`);
    expect(strip.status).toBe(200);
    expect(jpegSize(Buffer.from(await strip.arrayBuffer()))).toEqual({ width: 1280, height: 720 });
    expect((await fetch(`${s.url}strips/1.jpg`)).status).toBe(404);
  });

  it('an exam (no animation.glb: rigged.glb posed from motion.json): the error chart and the per-joint table', async () => {
    const s = await serve(folders.exam);
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    expect(await open(page, s.url)).toBe('ready');
    expect(await page.evaluate('window.viewer.data.kind')).toBe('exam');
    await expect(page.locator('figure[data-chart^="Joint error"]').count()).resolves.toBe(1);
    const rows = await page.locator('#table tbody tr').count();
    expect(rows).toBe(await page.evaluate('window.viewer.data.names.length'));
    await page.uncheck('#show-joints');
    await page.uncheck('#show-grid');
    expect(offBackground(await page.locator('#rig').screenshot())).toBeGreaterThan(0.01);
    await page.check('#show-joints');
    await page.check('#show-grid');
    await seek(page, 3, folders.frames);
    // The table's column of the frame follows a drag once it rests.
    const now = (await page.evaluate(
      `window.viewer.data.truth.errorCm[3][window.viewer.data.names.indexOf('htoe.L')].toFixed(2)`,
    )) as string;
    await expect(
      page.waitForFunction(
        `document.querySelector('#table tr[data-joint="htoe.L"] td:last-child').textContent === '${now}'`,
      ),
    ).resolves.toBeTruthy();
    // A click on a joint's row selects it: its own lines join the error chart.
    await page.click('#table tr[data-joint="htoe.L"]');
    await expect(page.getAttribute('#table tr[data-joint="htoe.L"]', 'class')).resolves.toContain('selected');
    await expect(page.textContent('figure[data-chart^="Joint error"] figcaption')).resolves.toContain(
      'htoe.L',
    );
    await page.screenshot({ path: path.join(OUTPUT, 'exam.png'), fullPage: true });
  });

  it('a folder without motion.json: the page says which file is missing', async () => {
    const s = await serve(folders.empty);
    expect(s.error).toContain('motion.json: missing');
    const page = await browser.newPage();
    expect(await open(page, s.url)).toBe('error');
    expect(await page.textContent('#message')).toContain(
      `${path.join(folders.empty, 'motion.json')}: missing`,
    );
    await page.screenshot({ path: path.join(OUTPUT, 'no-motion.png') });
  });

  it('a motion.json of another rig: the page names the field and the rig file', async () => {
    const other = path.join(path.dirname(folders.capture), 'other-rig');
    await mkdir(other, { recursive: true });
    const motion = JSON.parse(await readFile(path.join(folders.capture, 'motion.json'), 'utf8'));
    motion.names = motion.names.map((n: string) => `other.${n}`);
    await writeFile(path.join(other, 'motion.json'), JSON.stringify(motion));
    const s = await serve(other);
    const page = await browser.newPage();
    expect(await open(page, s.url)).toBe('error');
    expect(await page.textContent('#message')).toMatch(
      /motion\.json: names: not the rig's keypoints \(.*rig_info\.json has 34/,
    );
  });

  it('a port in use: says so and suggests --port', async () => {
    const s = await serve(folders.empty);
    await expect(serveViewer({ folder: folders.empty, port: s.port, webRoot })).rejects.toThrow(
      `view: port ${s.port} on 127.0.0.1 is in use; pass --port N for another`,
    );
  });
});
