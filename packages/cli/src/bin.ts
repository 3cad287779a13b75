#!/usr/bin/env node
import { main } from './main.js';

const controller = new AbortController();
process.once('SIGINT', () => {
  process.stderr.write('\nmocap: interrupted, stopping...\n');
  controller.abort(new Error('interrupted (Ctrl-C)'));
  process.once('SIGINT', () => process.exit(130));
});
main(process.argv.slice(2), { signal: controller.signal, cwd: process.env.INIT_CWD ?? process.cwd() }).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`mocap: ${(err as Error).stack ?? String(err)}\n`);
    process.exitCode = 1;
  },
);
