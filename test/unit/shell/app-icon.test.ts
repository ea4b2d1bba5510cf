// The app's icon without Electron: packaging/make-icon.mjs draws packaging/icon.png from code (no download), the build
// copies it to dist/icon.png, the window options point there, the installers use packaging/icon.png, and the file
// is a well-formed PNG (every chunk's CRC, the pixel data inflating to its declared size, a transparent corner).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { inflateSync } from 'node:zlib';
import { parse as parseYaml } from 'yaml';
import { WINDOW_ICON, windowIconPath } from '../../../main/electron/app-icon.js';
import { tempDir } from '../../helpers/tmp.js';
// @ts-expect-error — plain JavaScript build script, no type declarations
import { copyWindowIcon } from '../../../scripts/build.mjs';

const root = join(import.meta.dirname, '..', '..', '..');
const SOURCE_ICON = join(root, 'packaging', 'icon.png');

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** Read a PNG strictly: signature, chunks with their CRCs, IHDR first and IEND last, pixels decoded (RGBA, 8-bit). */
function readPng(buf: Buffer): { width: number; height: number; pixel(x: number, y: number): number[] } {
  assert.deepEqual([...buf.subarray(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10], 'PNG signature');
  const chunks: { type: string; data: Buffer }[] = [];
  for (let at = 8; at < buf.length;) {
    const len = buf.readUInt32BE(at);
    const type = buf.subarray(at + 4, at + 8).toString('latin1');
    const data = buf.subarray(at + 8, at + 8 + len);
    assert.equal(buf.readUInt32BE(at + 8 + len), crc32(buf.subarray(at + 4, at + 8 + len)), `${type} chunk CRC`);
    chunks.push({ type, data });
    at += 12 + len;
  }
  assert.equal(chunks[0]?.type, 'IHDR');
  assert.equal(chunks.at(-1)?.type, 'IEND');
  const ihdr = chunks[0]!.data;
  const width = ihdr.readUInt32BE(0);
  const height = ihdr.readUInt32BE(4);
  assert.deepEqual([ihdr[8], ihdr[9], ihdr[12]], [8, 6, 0], '8-bit RGBA, not interlaced');
  const raw = inflateSync(Buffer.concat(chunks.filter((c) => c.type === 'IDAT').map((c) => c.data)));
  const stride = width * 4 + 1;
  assert.equal(raw.length, height * stride, 'pixel data inflates to its declared size');
  // Undo the scanline filters (the icon's writer uses none, but a valid PNG may use any of the five).
  const px = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    const f = raw[y * stride]!;
    assert.ok(f <= 4, `row ${y}: filter type ${f}`);
    for (let i = 0; i < width * 4; i++) {
      const a = i >= 4 ? px[y * width * 4 + i - 4]! : 0;
      const b = y > 0 ? px[(y - 1) * width * 4 + i]! : 0;
      const c = i >= 4 && y > 0 ? px[(y - 1) * width * 4 + i - 4]! : 0;
      const p = a + b - c;
      const pred =
        f === 0
          ? 0
          : f === 1
            ? a
            : f === 2
              ? b
              : f === 3
                ? (a + b) >> 1
                : Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c)
                  ? a
                  : Math.abs(p - b) <= Math.abs(p - c)
                    ? b
                    : c;
      px[y * width * 4 + i] = (raw[y * stride + 1 + i]! + pred) & 0xff;
    }
  }
  return { width, height, pixel: (x, y) => [...px.subarray((y * width + x) * 4, (y * width + x) * 4 + 4)] };
}

test("the window icon is dist/icon.png, the build's copy of packaging/icon.png, which packaging/make-icon.mjs draws from code", () => {
  assert.equal(
    windowIconPath('/opt/Knack/resources/app.asar'),
    join('/opt/Knack/resources/app.asar', 'dist', 'icon.png'),
  );
  assert.equal(WINDOW_ICON, join('dist', 'icon.png'));
  const drawn = join(tempDir('knack-icon-'), 'icon.png');
  const r = spawnSync(process.execPath, [join(root, 'packaging', 'make-icon.mjs'), drawn], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.ok(
    readFileSync(drawn).equals(readFileSync(SOURCE_ICON)),
    'packaging/icon.png is exactly what make-icon.mjs draws',
  );
  // The build's step, into a folder of its own (the packaging test checks the icon inside the real app.asar).
  const appRoot = tempDir('knack-icon-app-');
  mkdirSync(join(appRoot, 'dist'));
  copyWindowIcon(join(appRoot, 'dist'));
  assert.ok(
    readFileSync(windowIconPath(appRoot)).equals(readFileSync(SOURCE_ICON)),
    'the build puts packaging/icon.png where the window looks',
  );
});

test("the icon is a valid square RGBA PNG: every chunk's CRC holds, transparent corners around an opaque tile", () => {
  const png = readPng(readFileSync(SOURCE_ICON));
  assert.equal(png.width, png.height);
  assert.ok(png.width >= 512, `${png.width} px: large enough for every platform's sizes`);
  assert.equal(png.pixel(0, 0)[3], 0, 'rounded corner: transparent');
  assert.equal(png.pixel(png.width >> 1, png.height >> 1)[3], 255, 'centre: opaque');
  // A corrupted byte is noticed (the check itself can fail).
  const bad = Buffer.from(readFileSync(SOURCE_ICON));
  bad[100] = bad[100]! ^ 0xff;
  assert.throws(() => readPng(bad), /CRC/);
});

test('the window is created with the icon, and every installer target uses packaging/icon.png', () => {
  const main = readFileSync(join(root, 'main', 'electron', 'main.ts'), 'utf8');
  const options = main.slice(
    main.indexOf('new BrowserWindow({'),
    main.indexOf('webPreferences:', main.indexOf('new BrowserWindow({')),
  );
  assert.match(options, /^\s*icon: windowIconPath\(appRoot\),$/m, 'createWindow passes the icon');
  const config = parseYaml(readFileSync(join(root, 'electron-builder.yml'), 'utf8')) as Record<
    string,
    { icon?: string }
  >;
  for (const platform of ['mac', 'win', 'linux']) assert.equal(config[platform]?.icon, 'packaging/icon.png', platform);
});
