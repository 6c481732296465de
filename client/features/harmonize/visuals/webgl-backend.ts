// The WebGL2 side of the renderer: one compiled program per fractal style, drawn as a single
// full-screen triangle, and the bookkeeping for a GPU context that is lost and comes back.
// renderer.ts decides when to draw, at what size, and when to give up for the 2D fallback.

import type { Backend } from './backend'
import type { Palette } from './palette'
import { FRACTAL_STYLES, type FractalStyle, VERTEX_SHADER } from './styles'

export interface GlBackend extends Backend {
  readonly kind: 'webgl2'
  /** Makes `index` the drawn style; false when its shader does not compile or link. */
  selectStyle(index: number): boolean
  /** Recreates the GPU objects after a context restore; false when that fails. */
  rebuild(): boolean
}

/** The wanted style, or the next one that compiles; null when none does. */
export function firstWorkingStyle(gl: GlBackend, wanted: number): number | null {
  for (let step = 0; step < FRACTAL_STYLES.length; step += 1) {
    const index = (wanted + step) % FRACTAL_STYLES.length
    if (gl.selectStyle(index)) return index
  }
  return null
}

interface ProgramInfo {
  program: WebGLProgram
  resolution: WebGLUniformLocation | null
  time: WebGLUniformLocation | null
  deep: WebGLUniformLocation | null
  mid: WebGLUniformLocation | null
  light: WebGLUniformLocation | null
}

export function createGlBackend(
  canvas: HTMLCanvasElement,
  styleIndex: number,
  events: { onLost: () => void; onRestored: () => void },
): GlBackend | null {
  let context: WebGL2RenderingContext | null = null
  try {
    context = canvas.getContext('webgl2', {
      alpha: false,
      antialias: false,
      depth: false,
      stencil: false,
      preserveDrawingBuffer: false,
      powerPreference: 'default',
    })
  } catch {
    context = null
  }
  // A context already lost (a canvas reused after a GPU reset) is as good as none.
  if (!context || context.isContextLost()) return null
  const gl = context

  // A program per style, compiled on first use; null marks a style that failed here.
  let programs = new Map<number, ProgramInfo | null>()
  let vertexArray: WebGLVertexArrayObject | null = null
  let current: ProgramInfo | null = null
  let currentIndex = styleIndex
  let lost = false

  const handleLost = (event: Event) => {
    // Without preventDefault the browser never offers the context back.
    event.preventDefault()
    lost = true
    events.onLost()
  }
  const handleRestored = () => {
    lost = false
    events.onRestored()
  }
  canvas.addEventListener('webglcontextlost', handleLost)
  canvas.addEventListener('webglcontextrestored', handleRestored)

  function rebuild(): boolean {
    programs = new Map()
    current = null
    vertexArray = gl.createVertexArray()
    return vertexArray !== null && !gl.isContextLost()
  }

  function selectStyle(index: number): boolean {
    if (lost) {
      // Remember the choice; it is compiled when the context comes back.
      currentIndex = index
      return true
    }
    let info = programs.get(index)
    if (info === undefined) {
      const style = FRACTAL_STYLES[index]
      info = style ? compileStyle(gl, style) : null
      programs.set(index, info)
    }
    if (!info) return false
    current = info
    currentIndex = index
    return true
  }

  rebuild()

  return {
    kind: 'webgl2',
    selectStyle,
    rebuild() {
      if (!rebuild()) return false
      return selectStyle(currentIndex)
    },
    draw(time: number, palette: Palette) {
      if (lost || gl.isContextLost() || !current) return false
      const { width, height } = gl.canvas
      gl.viewport(0, 0, width, height)
      // biome-ignore lint/correctness/useHookAtTopLevel: WebGL's useProgram, not a React hook.
      gl.useProgram(current.program)
      gl.bindVertexArray(vertexArray)
      gl.uniform2f(current.resolution, width, height)
      gl.uniform1f(current.time, time)
      gl.uniform3f(current.deep, ...palette.deep)
      gl.uniform3f(current.mid, ...palette.mid)
      gl.uniform3f(current.light, ...palette.light)
      gl.drawArrays(gl.TRIANGLES, 0, 3)
      return true
    },
    destroy() {
      canvas.removeEventListener('webglcontextlost', handleLost)
      canvas.removeEventListener('webglcontextrestored', handleRestored)
      if (gl.isContextLost()) return
      for (const info of programs.values()) if (info) gl.deleteProgram(info.program)
      gl.deleteVertexArray(vertexArray)
      programs.clear()
      current = null
    },
  }
}

/** Compiles and links one style; null (with a warning for developers) when the driver refuses. */
function compileStyle(gl: WebGL2RenderingContext, style: FractalStyle): ProgramInfo | null {
  const vertex = compileShader(gl, gl.VERTEX_SHADER, VERTEX_SHADER, style.id)
  const fragment = compileShader(gl, gl.FRAGMENT_SHADER, style.fragment, style.id)
  const program = vertex && fragment ? gl.createProgram() : null
  if (program && vertex && fragment) {
    gl.attachShader(program, vertex)
    gl.attachShader(program, fragment)
    gl.linkProgram(program)
  }
  // Shaders are not needed once linked (or once linking failed).
  if (vertex) gl.deleteShader(vertex)
  if (fragment) gl.deleteShader(fragment)
  if (!program) return null
  if (!gl.getProgramParameter(program, gl.LINK_STATUS)) {
    // Not console.error: the visuals carry on with another style or the fallback.
    if (!gl.isContextLost()) {
      console.warn(`Fractal style "${style.id}" did not link:`, gl.getProgramInfoLog(program))
    }
    gl.deleteProgram(program)
    return null
  }
  return {
    program,
    resolution: gl.getUniformLocation(program, 'u_resolution'),
    time: gl.getUniformLocation(program, 'u_time'),
    deep: gl.getUniformLocation(program, 'u_deep'),
    mid: gl.getUniformLocation(program, 'u_mid'),
    light: gl.getUniformLocation(program, 'u_light'),
  }
}

function compileShader(
  gl: WebGL2RenderingContext,
  type: number,
  source: string,
  styleId: string,
): WebGLShader | null {
  const shader = gl.createShader(type)
  if (!shader) return null
  gl.shaderSource(shader, source)
  gl.compileShader(shader)
  if (gl.getShaderParameter(shader, gl.COMPILE_STATUS)) return shader
  if (!gl.isContextLost()) {
    console.warn(`Fractal style "${styleId}" did not compile:`, gl.getShaderInfoLog(shader))
  }
  gl.deleteShader(shader)
  return null
}
