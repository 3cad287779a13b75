declare module 'gltf-validator' {
  /** One issue of a validation report. */
  export interface ValidatorMessage {
    code: string;
    message: string;
    /** 0 error, 1 warning, 2 info, 3 hint. */
    severity: number;
    pointer?: string;
  }
  /** The validator's report (the fields mocap reads). */
  export interface ValidatorReport {
    issues: {
      numErrors: number;
      numWarnings: number;
      numInfos: number;
      numHints: number;
      messages: ValidatorMessage[];
    };
  }
  export function validateBytes(
    data: Uint8Array,
    options?: Record<string, unknown>,
  ): Promise<ValidatorReport>;
  export function version(): string;
}
