// Every packed library imports by name outside the workspace, and the reader finds its tfjs
// peers (installed by the consumer, not bundled) and starts a backend.
import * as animLoop from '@mocap/anim-loop';
import * as blenderBridge from '@mocap/blender-bridge';
import * as cli from '@mocap/cli';
import * as fal from '@mocap/fal';
import * as layout from '@mocap/layout';
import * as media from '@mocap/media';
import * as pipeline from '@mocap/pipeline';
import * as queue from '@mocap/queue';
import * as reader from '@mocap/reader';
import * as solver from '@mocap/solver';

const packages = { animLoop, blenderBridge, cli, fal, layout, media, pipeline, queue, reader, solver };
for (const [name, mod] of Object.entries(packages)) {
  const count = Object.keys(mod).length;
  if (count === 0) throw new Error(`consumer-test: ${name} exports nothing.`);
  console.log(`${name}: ${count} runtime exports`);
}
const backend = await reader.initBackend();
console.log(`reader backend: ${backend.choice} (${backend.skipped.map((s) => s.choice).join(', ')} skipped)`);
