import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { extractFrames, frameFile, stripFile } from './extract-frames.js';
import { type LoadedView, type LoadViewOptions, loadViewFolder } from './load-view-folder.js';
import type { ViewError } from './view-data.js';

/** Options of {@link serveViewer}. */
export interface ServeViewerOptions extends LoadViewOptions {
  /** The capture or exam folder to show. */
  folder: string;
  /** 0 picks a free port. @default 5180 */
  port?: number | undefined;
  /** @default '127.0.0.1' */
  host?: string | undefined;
  /** The built page (index.html + assets). @default this package's `dist/web` */
  webRoot?: string | undefined;
}

/** A running viewer: where it listens, what it loaded, how to stop it. */
export interface ViewerServer {
  url: string;
  port: number;
  /** The folder's load error (also shown in the page), or null when it loaded. */
  error: string | null;
  close(): Promise<void>;
}

/** The port a viewer listens on unless told otherwise. */
export const DEFAULT_VIEW_PORT = 5180;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.jpg': 'image/jpeg',
  '.png': 'image/png',
  '.glb': 'model/gltf-binary',
  '.svg': 'image/svg+xml',
};

const defaultWebRoot = () => fileURLToPath(new URL('../dist/web/', import.meta.url));

async function sendFile(res: ServerResponse, file: string, download = false): Promise<void> {
  const body = await readFile(file);
  res.writeHead(200, {
    'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
    'content-length': body.length,
    ...(download ? { 'content-disposition': `attachment; filename="${path.basename(file)}"` } : {}),
  });
  res.end(body);
}

function send(res: ServerResponse, status: number, body: string, type = 'text/plain; charset=utf-8'): void {
  res.writeHead(status, { 'content-type': type });
  res.end(body);
}

/** Resolves `rel` under `root`, or null when it would leave it. */
function inside(root: string, rel: string): string | null {
  const file = path.resolve(root, `.${path.posix.normalize(`/${rel}`)}`);
  return file.startsWith(path.resolve(root) + path.sep) ? file : null;
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE') {
        reject(
          new Error(
            `view: port ${port} on ${host} is in use; pass --port N for another (--port 0: any free one).`,
            {
              cause: err,
            },
          ),
        );
      } else reject(new Error(`view: cannot listen on ${host}:${port} (${err.code}).`, { cause: err }));
    });
    server.listen(port, host, () => {
      const addr = server.address();
      resolve(typeof addr === 'object' && addr ? addr.port : port);
    });
  });
}

/**
 * Serves the viewer for one capture or exam folder on `host:port` (127.0.0.1 only by default):
 * the built page, `/api/view` (the folder read through @mocap/layout's schemas, or `{ error }`),
 * `/frames/<t>.jpg` (the clip's frames, extracted by ffmpeg when the server starts; a frame is
 * answered as soon as it is written), `/strips/<k>.jpg` (the same pass's proxy strips) and `/files/<name>`
 * (the glb, BVH, FBX to download). A folder that cannot be read still serves the page, which
 * shows the error. Rejects when the port is taken, saying so.
 *
 * ```ts
 * const viewer = await serveViewer({ folder: 'creatures/wolf/runs/capture/trot', port: 0 });
 * console.log(viewer.url);
 * await viewer.close();
 * ```
 */
export async function serveViewer(opts: ServeViewerOptions): Promise<ViewerServer> {
  const webRoot = opts.webRoot ?? defaultWebRoot();
  const host = opts.host ?? '127.0.0.1';
  let loaded: LoadedView | null = null;
  let error: string | null = null;
  try {
    loaded = await loadViewFolder(opts.folder, opts);
  } catch (err) {
    error = (err as Error).message;
  }
  const cache = await mkdtemp(path.join(tmpdir(), 'mocap-view-'));
  const abort = new AbortController();
  const frameDir = path.join(cache, 'frames');
  const stripDir = path.join(cache, 'strips');
  // The clip's frames, extracted once; a frame is served as soon as ffmpeg has written it.
  interface Extraction {
    done: Promise<void>;
    settled: boolean;
    error: Error | null;
  }
  let extraction: Extraction | null = null;
  const extract = () => {
    const video = loaded?.data.video;
    if (!video || extraction) return;
    const run: Extraction = { done: Promise.resolve(), settled: false, error: null };
    run.done = extractFrames(video.file, frameDir, {
      signal: abort.signal,
      strips: { dir: stripDir, strip: video.strip },
    }).then(
      () => {
        run.settled = true;
      },
      (err: Error) => {
        run.settled = true;
        run.error = err;
      },
    );
    extraction = run;
  };
  /** The file once ffmpeg has written it, or null when it never will (no such frame or strip). */
  const whenReady = async (file: string | null): Promise<string | null> => {
    if (file === null) return null;
    extract();
    for (;;) {
      if (existsSync(file)) return file;
      if (extraction?.error) throw extraction.error;
      if (!extraction || extraction.settled) return null;
      await Promise.race([extraction.done, delay(10)]);
    }
  };
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const p = decodeURIComponent(url.pathname);
    if (p === '/api/view') {
      const body = loaded ? loaded.data : ({ error: error ?? 'view: nothing loaded.' } satisfies ViewError);
      return send(res, loaded ? 200 : 422, JSON.stringify(body), 'application/json');
    }
    const video = loaded?.data.video;
    const frame = /^\/frames\/(\d+)\.jpg$/.exec(p);
    if (frame) {
      const t = Number(frame[1]);
      const file = await whenReady(video && t < video.frames ? frameFile(frameDir, t) : null);
      return file ? sendFile(res, file) : send(res, 404, `view: no frame ${frame[1]}.`);
    }
    const strip = /^\/strips\/(\d+)\.jpg$/.exec(p);
    if (strip) {
      const k = Number(strip[1]);
      const file = await whenReady(video && k < video.strip.count ? stripFile(stripDir, k) : null);
      return file ? sendFile(res, file) : send(res, 404, `view: no proxy strip ${strip[1]}.`);
    }
    if (p.startsWith('/files/')) {
      const file = loaded?.files.get(p.slice('/files/'.length));
      return file ? sendFile(res, file, !p.endsWith('.glb')) : send(res, 404, `view: no file ${p}.`);
    }
    const file = inside(webRoot, p === '/' ? 'index.html' : p);
    if (file && existsSync(file)) return sendFile(res, file);
    if (p === '/') {
      return send(res, 500, `view: ${webRoot}: no built page; run \`pnpm --filter @mocap/viewer build\`.`);
    }
    return send(res, 404, `view: ${p}: not found.`);
  };
  const server = createServer((req, res) => {
    handle(req, res).catch((err: Error) => send(res, 500, err.message));
  });
  let port: number;
  try {
    port = await listen(server, opts.port ?? DEFAULT_VIEW_PORT, host);
  } catch (err) {
    await rm(cache, { recursive: true, force: true });
    throw err;
  }
  extract();
  return {
    url: `http://${host}:${port}/`,
    port,
    error,
    close: async () => {
      abort.abort();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      await extraction?.done;
      await rm(cache, { recursive: true, force: true });
    },
  };
}
