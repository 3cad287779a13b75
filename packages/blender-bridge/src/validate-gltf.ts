import { readFile } from 'node:fs/promises';

/** One issue the Khronos validator reports. */
export interface GltfValidatorMessage {
  code: string;
  message: string;
  /** 0 error, 1 warning, 2 info, 3 hint. */
  severity: number;
  pointer?: string;
}

/** What {@link validateGltf} found. */
export interface GltfValidation {
  errors: number;
  warnings: number;
  /** Every message, errors first. */
  messages: GltfValidatorMessage[];
}

interface ValidatorModule {
  validateBytes(
    data: Uint8Array,
    options?: Record<string, unknown>,
  ): Promise<{ issues: { numErrors: number; numWarnings: number; messages: GltfValidatorMessage[] } }>;
}

// The package ships no type declarations; its module is typed here by what mocap uses.
const VALIDATOR = 'gltf-validator';

/**
 * Validates a glTF/GLB file with the Khronos glTF-Validator (npm `gltf-validator`).
 *
 * ```ts
 * const { errors } = await validateGltf('runs/apply/trot/animation.glb'); // 0
 * ```
 */
export async function validateGltf(file: string): Promise<GltfValidation> {
  const mod = (await import(VALIDATOR)) as ValidatorModule & { default?: ValidatorModule };
  const v = typeof mod.validateBytes === 'function' ? mod : mod.default!;
  const report = await v.validateBytes(new Uint8Array(await readFile(file)), { maxIssues: 100 });
  const messages = [...report.issues.messages].sort((a, b) => a.severity - b.severity);
  return { errors: report.issues.numErrors, warnings: report.issues.numWarnings, messages };
}
