#!/usr/bin/env node
// Draws packaging/icon.png (1024×1024): a rounded indigo square with a white "K". Run once after changing the design;
// electron-builder derives the .icns/.ico from it.
import { deflateSync } from 'node:zlib';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const N = 1024;
const px = Buffer.alloc(N * N * 4);
const inRounded = (x, y, r) => {
  const cx = Math.min(Math.max(x, r), N - 1 - r);
  const cy = Math.min(Math.max(y, r), N - 1 - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
};
// The K: a vertical bar and two diagonal strokes, as distance tests.
const distToSeg = (x, y, x1, y1, x2, y2) => {
  const dx = x2 - x1,
    dy = y2 - y1;
  const t = Math.max(0, Math.min(1, ((x - x1) * dx + (y - y1) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(x - (x1 + t * dx), y - (y1 + t * dy));
};
for (let y = 0; y < N; y++) {
  for (let x = 0; x < N; x++) {
    const i = (y * N + x) * 4;
    if (!inRounded(x, y, 200)) continue;
    const g = y / N;
    let r = Math.round(79 - 30 * g),
      gg = Math.round(70 - 30 * g),
      b = Math.round(229 - 40 * g);
    const k = Math.min(
      distToSeg(x, y, 360, 250, 360, 774),
      distToSeg(x, y, 380, 540, 680, 250),
      distToSeg(x, y, 470, 450, 690, 774),
    );
    if (k < 55) [r, gg, b] = [255, 255, 255];
    px[i] = r;
    px[i + 1] = gg;
    px[i + 2] = b;
    px[i + 3] = 255;
  }
}
const raw = Buffer.alloc(N * (N * 4 + 1));
for (let y = 0; y < N; y++) px.copy(raw, y * (N * 4 + 1) + 1, y * N * 4, (y + 1) * N * 4);
const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc = (buf) => {
  let c = 0xffffffff;
  for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type, data) => {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type), data]);
  const c = Buffer.alloc(4);
  c.writeUInt32BE(crc(td));
  return Buffer.concat([len, td, c]);
};
const ihdr = Buffer.alloc(13);
ihdr.writeUInt32BE(N, 0);
ihdr.writeUInt32BE(N, 4);
ihdr[8] = 8;
ihdr[9] = 6;
const png = Buffer.concat([
  Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
  chunk('IHDR', ihdr),
  chunk('IDAT', deflateSync(raw, { level: 9 })),
  chunk('IEND', Buffer.alloc(0)),
]);
// `node packaging/make-icon.mjs [OUT]`: OUT defaults to packaging/icon.png (a test draws it elsewhere and compares).
const out = process.argv[2] ?? fileURLToPath(new URL('./icon.png', import.meta.url));
writeFileSync(out, png);
console.log(`${out}: ${png.length} bytes`);
