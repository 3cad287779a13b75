// Preloaded with `node --import` by the CLI's tests: registers record-imports-hooks.mjs, which
// appends every module URL the process resolves to the file named by MOCAP_IMPORT_LOG.
import { register } from 'node:module';

register(new URL('./record-imports-hooks.mjs', import.meta.url), {
  data: { log: process.env.MOCAP_IMPORT_LOG },
});
