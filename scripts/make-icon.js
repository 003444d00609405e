#!/usr/bin/env node
// Draws the extension's icon, media/icon.png (256 × 256 RGBA): a rounded orange square with one
// route fanning out to three (a request dispatched by a route table). No dependencies: the shapes
// are distance tests, anti-aliased by 4 × 4 supersampling, and the PNG is written with node's zlib.
//   node scripts/make-icon.js [out.png]
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');

const SIZE = 256;
const SAMPLES = 4;
const TOP = [0xe8, 0x55, 0x1c];
const BOTTOM = [0xc2, 0x3b, 0x0e];
const WHITE = [0xff, 0xff, 0xff];

const from = { x: 62, y: 128 };
const ends = [{ x: 194, y: 74 }, { x: 194, y: 128 }, { x: 194, y: 182 }];

function insideRoundedSquare(x, y) {
  const r = 44;
  const dx = Math.max(r - x, 0, x - (SIZE - r));
  const dy = Math.max(r - y, 0, y - (SIZE - r));
  return dx * dx + dy * dy <= r * r;
}

function distanceToSegment(x, y, a, b) {
  const vx = b.x - a.x;
  const vy = b.y - a.y;
  const t = Math.max(0, Math.min(1, ((x - a.x) * vx + (y - a.y) * vy) / (vx * vx + vy * vy)));
  return Math.hypot(x - (a.x + t * vx), y - (a.y + t * vy));
}

function insideMark(x, y) {
  if (Math.hypot(x - from.x, y - from.y) <= 22) return true;
  for (const end of ends) {
    if (Math.hypot(x - end.x, y - end.y) <= 18) return true;
    // Each branch leaves the trunk level, bends, and arrives level: trunk → knee → end.
    const knee = { x: 128, y: end.y };
    const elbow = { x: 104, y: from.y };
    if (distanceToSegment(x, y, from, elbow) <= 7) return true;
    if (distanceToSegment(x, y, elbow, knee) <= 7) return true;
    if (distanceToSegment(x, y, knee, end) <= 7) return true;
  }
  return false;
}

function pixels() {
  const rows = Buffer.alloc(SIZE * (SIZE * 4 + 1));
  for (let py = 0; py < SIZE; py++) {
    const row = py * (SIZE * 4 + 1);
    rows[row] = 0; // filter: none
    const t = py / (SIZE - 1);
    const bg = TOP.map((c, i) => c + (BOTTOM[i] - c) * t);
    for (let px = 0; px < SIZE; px++) {
      let square = 0;
      let mark = 0;
      for (let sy = 0; sy < SAMPLES; sy++) {
        for (let sx = 0; sx < SAMPLES; sx++) {
          const x = px + (sx + 0.5) / SAMPLES;
          const y = py + (sy + 0.5) / SAMPLES;
          if (!insideRoundedSquare(x, y)) continue;
          square++;
          if (insideMark(x, y)) mark++;
        }
      }
      const at = row + 1 + px * 4;
      if (square === 0) continue; // transparent
      const w = mark / square;
      for (let i = 0; i < 3; i++) rows[at + i] = Math.round(bg[i] * (1 - w) + WHITE[i] * w);
      rows[at + 3] = Math.round((255 * square) / (SAMPLES * SAMPLES));
    }
  }
  return rows;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function png() {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(SIZE, 0);
  header.writeUInt32BE(SIZE, 4);
  header[8] = 8; // bits per channel
  header[9] = 6; // RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(pixels(), { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const out = process.argv[2] ?? path.join(__dirname, '..', 'media', 'icon.png');
fs.writeFileSync(out, png());
console.log(`${path.relative(process.cwd(), out)}: ${SIZE} × ${SIZE}`);
