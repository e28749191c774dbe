/**
 * Draws the app icons (the logo: three rising white bars on Bourse blue) and writes them as PNG with
 * nothing but node:zlib. Run after changing the design: `node apps/web/scripts/make-icons.ts`.
 * The PNGs are committed; the build does not run this.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32, deflateSync } from 'node:zlib';

type Rgba = readonly [number, number, number, number];

const BRAND: Rgba = [0x18, 0x58, 0xed, 255];
const WHITE: Rgba = [255, 255, 255, 255];
/** Samples per pixel side, for smooth rounded edges. */
const SUPERSAMPLE = 4;

type Rect = { x: number; y: number; w: number; h: number; r: number };

/** Is (px, py) inside the rounded rectangle? Coordinates in 0..1 of the icon side. */
function inRoundedRect(px: number, py: number, { x, y, w, h, r }: Rect): boolean {
  if (px < x || px > x + w || py < y || py > y + h) return false;
  const cx = Math.min(Math.max(px, x + r), x + w - r);
  const cy = Math.min(Math.max(py, y + r), y + h - r);
  return (px - cx) ** 2 + (py - cy) ** 2 <= r * r;
}

/**
 * The logo in a 32-unit grid (as components/Logo.tsx draws it). `maskable` fills the whole square and
 * shrinks the bars into the 80 % safe zone that launchers may crop to a circle.
 */
function shapes(maskable: boolean): { background: Rect; bars: Rect[] } {
  const unit = 1 / 32;
  const background = maskable ? { x: 0, y: 0, w: 1, h: 1, r: 0 } : { x: 0, y: 0, w: 1, h: 1, r: 8 * unit };
  const scale = maskable ? 0.7 : 1;
  const offset = (1 - scale) / 2;
  const bar = (x: number, y: number, h: number): Rect => ({
    x: offset + x * unit * scale,
    y: offset + y * unit * scale,
    w: 4 * unit * scale,
    h: h * unit * scale,
    r: 1 * unit * scale,
  });
  return { background, bars: [bar(7, 17, 8), bar(14, 12, 13), bar(21, 7, 18)] };
}

function draw(size: number, maskable: boolean): Buffer {
  const { background, bars } = shapes(maskable);
  const rowBytes = size * 4 + 1;
  const raw = Buffer.alloc(rowBytes * size);
  for (let y = 0; y < size; y++) {
    raw[y * rowBytes] = 0; // filter: none
    for (let x = 0; x < size; x++) {
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (let sy = 0; sy < SUPERSAMPLE; sy++) {
        for (let sx = 0; sx < SUPERSAMPLE; sx++) {
          const px = (x + (sx + 0.5) / SUPERSAMPLE) / size;
          const py = (y + (sy + 0.5) / SUPERSAMPLE) / size;
          if (!inRoundedRect(px, py, background)) continue;
          const color = bars.some((bar) => inRoundedRect(px, py, bar)) ? WHITE : BRAND;
          r += color[0];
          g += color[1];
          b += color[2];
          a += color[3];
        }
      }
      const samples = SUPERSAMPLE * SUPERSAMPLE;
      const offset = y * rowBytes + 1 + x * 4;
      // Average colour over the covered samples (straight alpha), coverage as alpha.
      const covered = a / 255;
      raw[offset] = covered ? Math.round(r / covered) : 0;
      raw[offset + 1] = covered ? Math.round(g / covered) : 0;
      raw[offset + 2] = covered ? Math.round(b / covered) : 0;
      raw[offset + 3] = Math.round(a / samples);
    }
  }
  return encodePng(size, size, raw);
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

function encodePng(width: number, height: number, raw: Buffer): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // colour type: RGBA
  header[10] = 0; // compression
  header[11] = 0; // filter
  header[12] = 0; // interlace
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([
    signature,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'public', 'icons');
const icons: ReadonlyArray<[name: string, size: number, maskable: boolean]> = [
  ['icon-192.png', 192, false],
  ['icon-512.png', 512, false],
  ['icon-maskable-512.png', 512, true],
  ['apple-touch-icon-180.png', 180, true],
];
for (const [name, size, maskable] of icons) {
  const png = draw(size, maskable);
  writeFileSync(join(out, name), png);
  console.log(`wrote ${name} (${size}×${size}, ${png.length} bytes)`);
}
