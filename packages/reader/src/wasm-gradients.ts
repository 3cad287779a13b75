import * as tf from '@tensorflow/tfjs-core';

type Info = tf.TensorInfo;
type Attrs = Record<string, unknown>;

/** Runs a wasm kernel directly on backend data (no tape, no engine bookkeeping). */
function runner(backend: tf.KernelBackend) {
  const made: Info[] = [];
  const run = (name: string, inputs: Record<string, Info>, attrs: Attrs = {}): Info => {
    const kernel = tf.getKernel(name, 'wasm');
    if (!kernel) throw new Error(`registerWasmGradients: the wasm backend has no ${name} kernel.`);
    const out = kernel.kernelFunc({ inputs, backend, attrs: attrs as tf.NamedAttrMap }) as Info;
    made.push(out);
    return out;
  };
  /** Frees every intermediate except `keep`. */
  const finish = (keep: Info): Info => {
    for (const t of made) if (t !== keep) backend.disposeData(t.dataId);
    return keep;
  };
  return { run, finish };
}

/**
 * Pads (positive) or crops (negative) the two spatial axes of an NHWC tensor so that each side
 * changes by the given amount.
 */
function padOrCrop(
  run: ReturnType<typeof runner>['run'],
  x: Info,
  [top, bottom, left, right]: [number, number, number, number],
): Info {
  let y = x;
  if (top > 0 || bottom > 0 || left > 0 || right > 0) {
    const paddings = [
      [0, 0],
      [Math.max(top, 0), Math.max(bottom, 0)],
      [Math.max(left, 0), Math.max(right, 0)],
      [0, 0],
    ];
    y = run('PadV2', { x: y }, { paddings, constantValue: 0 });
  }
  if (top < 0 || bottom < 0 || left < 0 || right < 0) {
    const [n, h, w, c] = y.shape as [number, number, number, number];
    const t = Math.max(-top, 0);
    const l = Math.max(-left, 0);
    const size = [n, h - t - Math.max(-bottom, 0), w - l - Math.max(-right, 0), c];
    y = run('Slice', { x: y }, { begin: [0, t, l, 0], size });
  }
  return y;
}

interface KernelArgs {
  inputs: tf.NamedTensorInfoMap;
  backend: unknown;
  attrs?: tf.NamedAttrMap;
}

function convInfo(xShape: number[], filterShape: number[], attrs: Attrs): tf.backend_util.Conv2DInfo {
  const format = (attrs.dataFormat as string | undefined) ?? 'NHWC';
  if (format !== 'NHWC' && format !== 'channelsLast') {
    throw new Error(`registerWasmGradients: dataFormat ${format} is not supported; use NHWC.`);
  }
  return tf.backend_util.computeConv2DInfo(
    xShape as [number, number, number, number],
    filterShape as [number, number, number, number],
    attrs.strides as [number, number] | number,
    1,
    attrs.pad as 'same' | 'valid' | number,
    attrs.dimRoundingMode as 'floor' | 'round' | 'ceil' | undefined,
  );
}

/**
 * Filter gradient as one forward convolution: the input transposed to [C, H, W, N] convolved with
 * the output gradient, transposed to an [outH, outW, N, O] filter and dilated by the stride.
 */
function conv2dBackpropFilter({ inputs, backend, attrs = {} }: KernelArgs): Info {
  const { run, finish } = runner(backend as tf.KernelBackend);
  const x = inputs.x as Info;
  const dy = inputs.dy as Info;
  const info = convInfo(x.shape, attrs.filterShape as number[], attrs);
  const { strideHeight: sh, strideWidth: sw, filterHeight: fh, filterWidth: fw, padInfo } = info;
  const [, h, w] = x.shape as [number, number, number, number];
  const [, oh, ow] = dy.shape as [number, number, number, number];
  const xt = run('Transpose', { x }, { perm: [3, 1, 2, 0] });
  const filter = run('Transpose', { x: dy }, { perm: [1, 2, 0, 3] });
  // Output rows p = 0..fh-1 read input rows p + i*sh - top: pad/crop so exactly fh rows come out.
  const bottom = fh - h - padInfo.top + (oh - 1) * sh;
  const right = fw - w - padInfo.left + (ow - 1) * sw;
  const xp = padOrCrop(run, xt, [padInfo.top, bottom, padInfo.left, right]);
  const out = run(
    'Conv2D',
    { x: xp, filter },
    { strides: [1, 1], pad: 'valid', dilations: [sh, sw], dataFormat: 'NHWC', dimRoundingMode: undefined },
  );
  return finish(run('Transpose', { x: out }, { perm: [1, 2, 0, 3] }));
}

/**
 * Input gradient as one forward convolution: the output gradient dilated with zeros by the
 * stride, convolved (stride 1) with the filter flipped in space and with its channels swapped.
 */
function conv2dBackpropInput({ inputs, backend, attrs = {} }: KernelArgs): Info {
  const { run, finish } = runner(backend as tf.KernelBackend);
  const dy = inputs.dy as Info;
  const filter = inputs.filter as Info;
  const inputShape = attrs.inputShape as number[];
  const info = convInfo(inputShape, filter.shape, attrs);
  const { strideHeight: sh, strideWidth: sw, filterHeight: fh, filterWidth: fw, padInfo } = info;
  const [n, h, w] = inputShape as [number, number, number, number];
  const [, oh, ow, o] = dy.shape as [number, number, number, number];
  let d = dy;
  if (sh > 1 || sw > 1) {
    const r = run('Reshape', { x: dy }, { shape: [n, oh, 1, ow, 1, o] });
    const p = run(
      'PadV2',
      { x: r },
      {
        paddings: [
          [0, 0],
          [0, 0],
          [0, sh - 1],
          [0, 0],
          [0, sw - 1],
          [0, 0],
        ],
        constantValue: 0,
      },
    );
    d = run('Reshape', { x: p }, { shape: [n, oh * sh, ow * sw, o] });
  }
  const flipped = run('Reverse', { x: filter }, { dims: [0, 1] });
  const wf = run('Transpose', { x: flipped }, { perm: [0, 1, 3, 2] });
  const top = fh - 1 - padInfo.top;
  const left = fw - 1 - padInfo.left;
  const bottom = h - oh * sh - top + fh - 1;
  const right = w - ow * sw - left + fw - 1;
  const dp = padOrCrop(run, d, [top, bottom, left, right]);
  return finish(
    run(
      'Conv2D',
      { x: dp, filter: wf },
      { strides: [1, 1], pad: 'valid', dilations: [1, 1], dataFormat: 'NHWC', dimRoundingMode: undefined },
    ),
  );
}

let registered = false;

/**
 * Registers on the wasm backend the convolution gradient kernels it lacks or runs slowly
 * (`Conv2DBackpropFilter`, `Conv2DBackpropInput`), each as one forward XNNPACK convolution.
 * Idempotent; needs the wasm backend registered (importing `@tensorflow/tfjs-backend-wasm`).
 *
 * ```ts
 * registerWasmGradients();
 * const grads = tf.grads((x) => tf.conv2d(x, w, 2, 'same').sum())([x]);
 * ```
 */
export function registerWasmGradients(): void {
  if (registered) return;
  for (const [kernelName, kernelFunc] of [
    ['Conv2DBackpropFilter', conv2dBackpropFilter],
    ['Conv2DBackpropInput', conv2dBackpropInput],
  ] as const) {
    if (tf.getKernel(kernelName, 'wasm')) tf.unregisterKernel(kernelName, 'wasm');
    tf.registerKernel({
      kernelName,
      backendName: 'wasm',
      kernelFunc: kernelFunc as unknown as tf.KernelFunc,
    });
  }
  registered = true;
}

/** The wasm backend's own kernels, exported for tests that compare against them. */
export const WASM_GRADIENT_KERNELS = ['Conv2DBackpropFilter', 'Conv2DBackpropInput'] as const;
