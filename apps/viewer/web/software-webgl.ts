/**
 * Whether WebGL runs on a software rasterizer (SwiftShader, llvmpipe: headless or GPU-less
 * browsers), where multisampling costs more than the rest of the rig's render.
 */
export function softwareWebGL(): boolean {
  const gl =
    document.createElement('canvas').getContext('webgl2') ??
    document.createElement('canvas').getContext('webgl');
  if (!gl) return false;
  const info = gl.getExtension('WEBGL_debug_renderer_info');
  const renderer = String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
  gl.getExtension('WEBGL_lose_context')?.loseContext();
  return /swiftshader|llvmpipe|softpipe|software/i.test(renderer);
}
