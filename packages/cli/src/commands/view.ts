import path from 'node:path';
import { type Command, parseCommandArgs, UsageError } from '../command.js';

/** `mocap view`: serves the viewer for a capture or exam folder on 127.0.0.1 until Ctrl-C. */
export const viewCommand: Command = {
  name: 'view',
  summary: 'Look at a capture or exam folder in the browser: clip + detections beside the animated rig',
  usage: 'mocap view <folder> [--port N] [--creature DIR] [--clip FILE]',
  async run(ctx) {
    const { values, positionals } = parseCommandArgs(
      ctx.argv,
      { port: { type: 'string' }, creature: { type: 'string' }, clip: { type: 'string' } },
      true,
    );
    const [folder, ...extra] = positionals;
    if (!folder || extra.length > 0)
      throw new UsageError('expected one folder (runs/capture/<clip> or runs/exam/<run>).');
    const port = values.port === undefined ? undefined : Number(values.port);
    if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port < 65536)) {
      throw new UsageError(`--port: expected a port 0..65535, got "${values.port}".`);
    }
    const { serveViewer } = await import('@mocap/viewer');
    const viewer = await serveViewer({
      folder: path.resolve(ctx.cwd, folder),
      port,
      creature: values.creature && path.resolve(ctx.cwd, values.creature),
      clip: values.clip && path.resolve(ctx.cwd, values.clip),
    });
    if (viewer.error) ctx.stderr.write(`mocap view: ${viewer.error} (the page shows it too)\n`);
    ctx.stdout.write(`${viewer.url}\n`);
    ctx.stderr.write('Serving on 127.0.0.1 only; Ctrl-C stops.\n');
    await new Promise<void>((resolve) => {
      if (ctx.signal.aborted) resolve();
      ctx.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    await viewer.close();
    return 0;
  },
};
