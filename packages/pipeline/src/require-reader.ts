import { existsSync } from 'node:fs';
import path from 'node:path';
import { FileError } from '@mocap/layout';

/**
 * Throws unless `reader` holds a trained reader (`model.json`); the message names the commands
 * that make one.
 */
export function requireReader(op: string, reader: string): void {
  const model = path.join(reader, 'model.json');
  if (!existsSync(model)) {
    throw new FileError(
      `${op}: ${model}: no trained reader there; run \`mocap dataset\` then \`mocap train\` first (or pass --reader DIR).`,
      model,
      '',
    );
  }
}
