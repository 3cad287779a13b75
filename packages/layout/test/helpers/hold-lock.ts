// A writer for output-lock's tests, run as its own process: takes the lock on a folder, writes
// `count` files atomically (`every` ms apart) as a stage does, then releases it.
// argv: <dir> <count> <every ms> [wait ms]
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { atomicWrite, lockOutput } from '@mocap/layout';

const [dir = '', count = '10', every = '100', waitMs = '0'] = process.argv.slice(2);
try {
  const lock = await lockOutput(dir, { operation: 'test-writer', waitMs: Number(waitMs), pollMs: 50 });
  process.stdout.write(`locked ${process.pid}\n`);
  for (let i = 0; i < Number(count); i++) {
    await atomicWrite(path.join(dir, `part-${i}.txt`), `${process.pid} ${i}\n`);
    await sleep(Number(every));
  }
  await lock.release();
  process.stdout.write('done\n');
} catch (err) {
  process.stderr.write(`${(err as Error).name}: ${(err as Error).message}\n`);
  process.exitCode = 3;
}
