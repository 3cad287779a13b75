import { readFile } from 'node:fs/promises';
import type { ValidatorMessage, ValidatorReport } from 'gltf-validator';

/** What {@link validateGltf} found. */
export interface GltfValidation {
  errors: number;
  warnings: number;
  /** Every message, errors first. */
  messages: ValidatorMessage[];
}

type ValidatorModule = {
  validateBytes(d: Uint8Array, o?: Record<string, unknown>): Promise<ValidatorReport>;
};

/**
 * Validates a glTF/GLB file with the Khronos glTF-Validator (npm `gltf-validator`).
 *
 * ```ts
 * const { errors } = await validateGltf('runs/apply/trot/animation.glb'); // 0
 * ```
 */
export async function validateGltf(file: string): Promise<GltfValidation> {
  const mod = (await import('gltf-validator')) as unknown as ValidatorModule & { default?: ValidatorModule };
  const v = typeof mod.validateBytes === 'function' ? mod : mod.default!;
  const report = await v.validateBytes(new Uint8Array(await readFile(file)), { maxIssues: 100 });
  const messages = [...report.issues.messages].sort((a, b) => a.severity - b.severity);
  return { errors: report.issues.numErrors, warnings: report.issues.numWarnings, messages };
}
