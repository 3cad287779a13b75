import { readFile } from 'node:fs/promises';
import { FileError, parseFileData, RigInfo, RigJson } from '@mocap/layout';
import { type RigModel, rigModelFromRigInfo, rigModelFromRigJson } from './rig-model.js';

/**
 * Reads a rig file as a {@link RigModel}: `rig_info.json` (has `keypoints`; Blender's
 * matrices) or `rig.json` (rest matrices rebuilt as Blender builds them). Errors name `op`,
 * the file and the field.
 */
export async function readRigModel(op: string, file: string): Promise<RigModel> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new FileError(`${op}: ${file}: cannot read (${(err as NodeJS.ErrnoException).code}).`, file, '', {
      cause: err,
    });
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new FileError(`${op}: ${file}: not valid JSON (${(err as Error).message}).`, file, '', {
      cause: err,
    });
  }
  if (data !== null && typeof data === 'object' && 'keypoints' in data) {
    return rigModelFromRigInfo(parseFileData(op, file, data, RigInfo), file);
  }
  return rigModelFromRigJson(parseFileData(op, file, data, RigJson), file);
}
