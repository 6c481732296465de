// Renders the PWA icons from client/public/favicon.svg. Run `npm run icons` after changing the
// SVG; the PNGs are committed so a build needs no image tooling.
import { readFileSync } from 'node:fs'
import path from 'node:path'
import sharp from 'sharp'

const publicDir = path.resolve(import.meta.dirname, '../client/public')
const svg = readFileSync(path.join(publicDir, 'favicon.svg'))

async function render(size: number, file: string, padding = 0) {
  const inner = Math.round(size * (1 - padding * 2))
  const image = await sharp(svg, { density: 600 }).resize(inner, inner).png().toBuffer()
  await sharp({
    create: { width: size, height: size, channels: 4, background: padding ? '#1d4f91' : '#0000' },
  })
    .composite([{ input: image, gravity: 'centre' }])
    .png({ compressionLevel: 9 })
    .toFile(path.join(publicDir, file))
  console.log(`wrote ${file}`)
}

await render(192, 'icons/icon-192.png')
await render(512, 'icons/icon-512.png')
// Maskable icons are cropped to a circle or squircle: keep the drawing inside the safe zone.
await render(512, 'icons/maskable-512.png', 0.1)
await render(180, 'apple-touch-icon.png')
