// The fractal styles of a harmonizing session, as GLSL ES 3.00 fragment shaders.
//
// Every style reads the same uniforms: the canvas size in pixels, the scene time in seconds and a
// three-colour palette (deep, mid, light). Calm is part of the contract (PRODUCT.md principle 6):
// - every motion is a slow drift: time enters each shader scaled by 0.045 or less (periods of
//   minutes), so no luminance can oscillate anywhere near 3 Hz; tests/e2e/visuals.spec.ts
//   samples it at 30 Hz to keep it that way;
// - the renderer scales the scene time, not the shaders, for reduced motion, so a style never
//   needs a second, "calm" variant;
// - colour comes only from the palette, mapped through smooth curves, so no style can produce a
//   colour the panel's designer did not choose.
// Loops have constant bounds and there are no texture reads, so the cost per pixel is bounded.

/** One selectable look. `id` is stable and can key a translated label in the UI. */
export interface FractalStyle {
  id: 'julia' | 'flow' | 'mandala' | 'flower'
  fragment: string
}

/**
 * A single triangle that covers the viewport, built from gl_VertexID: no vertex buffer to upload
 * or lose with the context, and no diagonal seam where a quad's two triangles meet.
 */
export const VERTEX_SHADER = `#version 300 es
void main() {
  vec2 corner = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));
  gl_Position = vec4(corner * 2.0 - 1.0, 0.0, 1.0);
}
`

const PRELUDE = `#version 300 es
precision highp float;

uniform vec2 u_resolution;
uniform float u_time;
uniform vec3 u_deep;
uniform vec3 u_mid;
uniform vec3 u_light;

out vec4 outColor;

// Deep -> mid -> light with soft shoulders, so bands in the field never become hard edges.
vec3 palette(float x) {
  x = clamp(x, 0.0, 1.0);
  vec3 colour = mix(u_deep, u_mid, smoothstep(0.0, 0.6, x));
  return mix(colour, u_light, smoothstep(0.45, 1.0, x));
}

// The shorter side of the canvas spans [-1, 1], so the picture keeps its shape on any screen.
vec2 centred(vec2 fragCoord) {
  return (2.0 * fragCoord - u_resolution) / min(u_resolution.x, u_resolution.y);
}

vec2 complexMul(vec2 a, vec2 b) {
  return vec2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}

mat2 rotation(float angle) {
  float c = cos(angle);
  float s = sin(angle);
  return mat2(c, -s, s, c);
}

// Dave Hoskins' "hash without sine" (MIT): stable on mobile GPUs, where sin-based hashes band.
float hash12(vec2 p) {
  vec3 p3 = fract(vec3(p.xyx) * 0.1031);
  p3 += dot(p3, p3.yzx + 33.33);
  return fract((p3.x + p3.y) * p3.z);
}

// Dark corners hold the eye in the centre; the dither (fixed in time, so it cannot shimmer)
// hides the 8-bit banding that smooth gradients show on dim screens.
vec4 finish(vec3 colour, vec2 uv) {
  colour *= 1.0 - 0.28 * smoothstep(0.6, 1.9, length(uv));
  colour += (hash12(gl_FragCoord.xy) - 0.5) / 255.0;
  return vec4(clamp(colour, 0.0, 1.0), 1.0);
}
`

const NOISE = `
// The first step of Dave Hoskins' hash22 (MIT) scales each axis on its own, so a cell's four
// corners need it for two columns and two rows, not for four points. The integer coordinates are
// offset before the multiply, exactly as hash22(cell + offset) does: neighbouring cells must get
// bit-identical values for the corners they share, and folding the offset into a multiply-add
// shows up as seams.
vec2 hashCorner(vec3 p3) {
  p3 += dot(p3, p3.yzx + 33.33);
  return fract((p3.xx + p3.yz) * p3.zy);
}

// Value noise with two independent channels: the cost of one lookup per corner for two fields.
vec2 valueNoise2(vec2 p) {
  vec2 cell = floor(p);
  vec2 f = p - cell;
  vec2 u = f * f * (3.0 - 2.0 * f);
  // hash22's p3 is (x, y, z): x and z per column (left, right), y per row (bottom, top).
  vec4 columns = cell.xxxx + vec4(0.0, 0.0, 1.0, 1.0);
  columns = fract(columns * vec4(0.1031, 0.0973, 0.1031, 0.0973));
  vec2 rows = fract((cell.yy + vec2(0.0, 1.0)) * 0.1030);
  vec2 a = hashCorner(vec3(columns.x, rows.x, columns.y));
  vec2 b = hashCorner(vec3(columns.z, rows.x, columns.w));
  vec2 c = hashCorner(vec3(columns.x, rows.y, columns.y));
  vec2 d = hashCorner(vec3(columns.z, rows.y, columns.w));
  return mix(mix(a, b, u.x), mix(c, d, u.x), u.y);
}

// Each octave is rotated so the value-noise grid never lines up into visible streaks. The octaves
// are written out, not looped: SwiftShader (the software WebGL of GPU-less machines) pays for
// every loop iteration, and GPU compilers unroll a loop this short anyway.
const mat2 OCTAVE = mat2(1.6, 1.2, -1.2, 1.6);

vec2 fbm3(vec2 p) {
  vec2 sum = 0.5 * valueNoise2(p);
  p = OCTAVE * p;
  sum += 0.25 * valueNoise2(p);
  p = OCTAVE * p;
  sum += 0.125 * valueNoise2(p);
  return sum / 0.875;
}

vec2 fbm4(vec2 p) {
  vec2 sum = 0.5 * valueNoise2(p);
  p = OCTAVE * p;
  sum += 0.25 * valueNoise2(p);
  p = OCTAVE * p;
  sum += 0.125 * valueNoise2(p);
  p = OCTAVE * p;
  sum += 0.0625 * valueNoise2(p);
  return sum / 0.9375;
}
`

// 1. A Julia set whose constant drifts slowly near the Mandelbrot set's edge, so its snowflake
// clusters keep unfolding; it turns and breathes in and out of a gentle zoom. Smooth
// (continuous) iteration counts give soft glows instead of stair-stepped bands.
const JULIA = `${PRELUDE}
const int MAX_ITERATIONS = 84;

void main() {
  vec2 uv = centred(gl_FragCoord.xy);
  float t = u_time;
  float zoom = 1.05 + 0.2 * sin(t * 0.021);
  vec2 z = rotation(t * 0.013) * uv * zoom;
  // c wanders a small patch just outside the Mandelbrot set, never inside: the set stays a lace
  // of dust, and no interior can suddenly appear and flood the screen with a new brightness.
  float angle = 2.06 + 0.14 * sin(t * 0.017);
  vec2 c = (0.792 + 0.008 * sin(t * 0.013)) * vec2(cos(angle), sin(angle));

  float n = 0.0;
  float m2 = dot(z, z);
  float trap = 1e3;
  for (int i = 0; i < MAX_ITERATIONS; i++) {
    z = vec2(z.x * z.x - z.y * z.y, 2.0 * z.x * z.y) + c;
    m2 = dot(z, z);
    trap = min(trap, m2);
    if (m2 > 256.0) break;
    n += 1.0;
  }

  vec3 colour;
  if (m2 > 256.0) {
    float smoothN = n - log2(log2(m2)) + 4.0;
    float x = 1.0 - exp(-smoothN * 0.075);
    colour = palette(x * 0.95);
    colour += u_light * 0.22 * smoothstep(0.7, 1.0, x);
  } else {
    // Inside the set: a dim glow from how close the orbit came to the origin.
    colour = mix(u_deep, u_mid, 0.25 + 0.35 * exp(-trap * 2.5));
  }
  outColor = finish(colour, uv);
}
`

// 2. Water in slow flow: fractal noise warped by itself twice (Inigo Quilez's domain warping),
// with caustic highlights where the warped field folds into ridges. Noise lookups are nearly all
// of its cost (issue 10: it took 1.5 to 2.5 times the other styles' frame time in software
// rendering), so only the first warp, whose shapes the second warp and the field magnify, keeps a
// fourth octave; on the second warp and the field the fourth octave was fine grain that hardly
// shows.
const FLOW = `${PRELUDE}${NOISE}
void main() {
  vec2 uv = centred(gl_FragCoord.xy);
  float t = u_time * 0.045;
  vec2 p = rotation(t * 0.2) * uv * 1.25;

  vec2 q = fbm4(p + vec2(0.3 * t, t));
  vec2 r = fbm3(p + 3.2 * q + vec2(1.7, 9.2) + vec2(0.7 * t, -0.5 * t));
  // One more lookup gives both the final field and, from its second channel, the caustic ridges.
  vec2 field = fbm3(p + 2.8 * r);
  float f = field.x;

  // ridge^7 by multiplication: pow is an exp2 and a log2, which software rendering pays for.
  float ridge = 1.0 - abs(2.0 * field.y - 1.0);
  float ridge2 = ridge * ridge;
  float caustic = ridge2 * ridge2 * ridge2 * ridge;

  vec3 colour = palette(smoothstep(0.1, 0.95, f * f * 1.25 + 0.15 * length(q)));
  colour = mix(colour, u_light, caustic * 0.45);
  outColor = finish(colour, uv);
}
`

// 3. A mandala: the plane is folded into eight mirrored sectors, then iterated through Kali's
// "abs and invert" map, an IFS whose orbit lengths trace lace-like, self-similar rosettes.
const MANDALA = `${PRELUDE}
const int ITERATIONS = 11;

void main() {
  vec2 uv = centred(gl_FragCoord.xy);
  float t = u_time;
  vec2 p = rotation(t * 0.011) * uv;

  const float SECTORS = 8.0;
  const float SECTOR = 6.2831853 / SECTORS;
  float angle = atan(p.y, p.x);
  angle = abs(mod(angle, SECTOR) - 0.5 * SECTOR);
  float radius = length(p);
  p = radius * vec2(cos(angle), sin(angle));
  p *= 0.9 + 0.12 * sin(t * 0.023);

  vec2 fold = vec2(-0.74 + 0.07 * sin(t * 0.019), -0.56 + 0.06 * cos(t * 0.015));
  float glow = 0.0;
  float weight = 1.0;
  for (int i = 0; i < ITERATIONS; i++) {
    p = abs(p) / max(dot(p, p), 1e-4) + fold;
    glow += weight * exp(-4.0 * abs(length(p) - 1.0));
    weight *= 0.82;
  }
  glow /= 3.4;

  vec3 colour = palette(smoothstep(0.05, 0.95, glow));
  // A soft, fixed halo keeps the centre of the rosette gently lit whatever the fold does.
  colour = mix(colour, u_light, 0.18 * exp(-radius * radius * 6.0));
  outColor = finish(colour, uv);
}
`

// 4. A flower grown from orbit traps: the Julia set of z^5 + c has five-fold symmetry, so its
// spirals open as petals. Orbits are coloured by how close they pass to a slowly turning rose
// curve and to a ring, which lights the petals' veins; escaping points get a smooth halo.
const FLOWER = `${PRELUDE}
const int ITERATIONS = 28;

void main() {
  vec2 uv = centred(gl_FragCoord.xy);
  float t = u_time;
  vec2 z = rotation(-t * 0.009) * uv * 1.05;
  // c = w - w^5 with |5 w^4| just under 1 keeps c inside, and close to the edge of, the main
  // component of the degree-5 Mandelbrot set: the Julia set stays whole, and its rim in bloom.
  float rho = 0.6687 * (0.975 + 0.02 * sin(t * 0.023));
  vec2 w = rho * vec2(cos(t * 0.012), sin(t * 0.012));
  vec2 w2 = complexMul(w, w);
  vec2 c = w - complexMul(complexMul(w2, w2), w);

  float petal = 1e3;
  float ring = 1e3;
  float n = 0.0;
  float m2 = dot(z, z);
  vec2 petalTurn = vec2(cos(t * 0.02), sin(t * 0.02));
  float ringRadius = 0.45 + 0.08 * sin(t * 0.031);
  for (int i = 0; i < ITERATIONS; i++) {
    vec2 z2 = complexMul(z, z);
    z = complexMul(complexMul(z2, z2), z) + c;
    m2 = dot(z, z);
    if (m2 > 64.0) break;
    n += 1.0;
    // The rose r = 0.6 |cos(2.5 theta + turn)| without atan or cos: with u = e^(i theta),
    // e^(i 2.5 theta) = u^2 * sqrt(u), and sqrt(u) is the normalised u + 1 (half-angle identity).
    float r = sqrt(m2);
    vec2 u = z / max(r, 1e-6);
    vec2 halfAngle = u + vec2(1.0, 0.0);
    halfAngle *= inversesqrt(max(dot(halfAngle, halfAngle), 1e-8));
    float rose = 0.6 * abs(complexMul(complexMul(complexMul(u, u), halfAngle), petalTurn).x);
    petal = min(petal, abs(r - rose));
    ring = min(ring, abs(r - ringRadius));
  }

  float petals = exp(-petal * 6.0);
  float rings = exp(-ring * 10.0);
  float halo = 0.0;
  if (m2 > 64.0) {
    float smoothN = n - log(log(m2) * 0.5 / log(8.0)) / log(5.0);
    halo = 1.0 - exp(-smoothN * 0.35);
  }
  vec3 colour = palette(0.08 + 0.55 * petals + 0.3 * halo);
  colour = mix(colour, u_light, 0.3 * rings);
  outColor = finish(colour, uv);
}
`

/** The styles, in the order `style: number` selects them. */
export const FRACTAL_STYLES: readonly FractalStyle[] = [
  { id: 'julia', fragment: JULIA },
  { id: 'flow', fragment: FLOW },
  { id: 'mandala', fragment: MANDALA },
  { id: 'flower', fragment: FLOWER },
]
