import { Worker } from 'node:worker_threads';

/**
 * Starts one of this package's worker entries (`name`: its file name without extension, e.g.
 * `peak-worker`) in a worker thread with `workerData`. From source (tsx, vitest) the worker is the
 * .ts file beside this one and registers tsx's loader first; built, the .js beside the bundle
 * (tsup builds each entry there).
 *
 * ```ts
 * const worker = spawnWorker('peak-worker', options);
 * ```
 */
export function spawnWorker(name: string, workerData: unknown): Worker {
  const ts = import.meta.url.endsWith('.ts');
  const url = new URL(`./${name}${ts ? '.ts' : '.js'}`, import.meta.url);
  return ts
    ? new Worker(
        `import('tsx/esm/api').then((m) => { m.register(); return import(${JSON.stringify(url.href)}); });`,
        { eval: true, workerData, execArgv: [...process.execArgv, '--conditions=@mocap/source'] },
      )
    : new Worker(url, { workerData });
}
