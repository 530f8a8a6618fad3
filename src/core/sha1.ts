// SHA-1 of a UTF-8 string, in plain TypeScript so src/core stays importable from the browser bundle (no
// node:crypto). Used only for cache keys, never for security. FIPS 180-4.

const encoder = new TextEncoder();
// Scratch buffers reused across calls (the function is synchronous, so this is safe).
const W = new Int32Array(80); // Int32, not Uint32: keeps every value a small integer for the JIT
let scratch = new Uint8Array(256);

/** UTF-8 bytes of `text` padded to whole 64-byte blocks with 0x80, zeros and the 64-bit bit length. */
function padded(text: string): { bytes: Uint8Array; total: number } {
  let length = text.length;
  let ascii = true;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) > 0x7f) {
      ascii = false;
      break;
    }
  }
  const encoded = ascii ? null : encoder.encode(text);
  if (encoded) length = encoded.length;
  const total = (((length + 8) >>> 6) + 1) << 6;
  if (scratch.length < total) scratch = new Uint8Array(total * 2);
  const bytes = scratch;
  if (encoded) bytes.set(encoded);
  else for (let i = 0; i < length; i++) bytes[i] = text.charCodeAt(i);
  bytes.fill(0, length, total);
  bytes[length] = 0x80;
  const bitsHigh = Math.floor(length / 0x20000000); // (length * 8) / 2^32
  const bitsLow = (length * 8) >>> 0;
  bytes[total - 8] = bitsHigh >>> 24;
  bytes[total - 7] = (bitsHigh >>> 16) & 0xff;
  bytes[total - 6] = (bitsHigh >>> 8) & 0xff;
  bytes[total - 5] = bitsHigh & 0xff;
  bytes[total - 4] = bitsLow >>> 24;
  bytes[total - 3] = (bitsLow >>> 16) & 0xff;
  bytes[total - 2] = (bitsLow >>> 8) & 0xff;
  bytes[total - 1] = bitsLow & 0xff;
  return { bytes, total };
}

const K3 = 0x8f1bbcdc | 0;
const K4 = 0xca62c1d6 | 0;

const hex = (h: number): string => (h >>> 0).toString(16).padStart(8, '0');

/** Lower-case hex SHA-1 digest of the UTF-8 encoding of `text`. */
export function sha1Hex(text: string): string {
  const { bytes, total } = padded(text);
  let h0 = 0x67452301;
  let h1 = 0xefcdab89 | 0;
  let h2 = 0x98badcfe | 0;
  let h3 = 0x10325476;
  let h4 = 0xc3d2e1f0 | 0;
  for (let off = 0; off < total; off += 64) {
    for (let i = 0; i < 16; i++) {
      const j = off + i * 4;
      W[i] =
        ((bytes[j] as number) << 24) |
        ((bytes[j + 1] as number) << 16) |
        ((bytes[j + 2] as number) << 8) |
        (bytes[j + 3] as number);
    }
    for (let i = 16; i < 80; i++) {
      const x = (W[i - 3] as number) ^ (W[i - 8] as number) ^ (W[i - 14] as number) ^ (W[i - 16] as number);
      W[i] = (x << 1) | (x >>> 31);
    }
    let a = h0;
    let b = h1;
    let c = h2;
    let d = h3;
    let e = h4;
    // Four rounds of 20 steps, unbranched: t = rotl(a, 5) + f(b, c, d) + e + k + W[i].
    let i = 0;
    for (; i < 20; i++) {
      const t = (((a << 5) | (a >>> 27)) + ((b & c) | (~b & d)) + e + 0x5a827999 + (W[i] as number)) | 0;
      e = d;
      d = c;
      c = (b << 30) | (b >>> 2);
      b = a;
      a = t;
    }
    for (; i < 40; i++) {
      const t = (((a << 5) | (a >>> 27)) + (b ^ c ^ d) + e + 0x6ed9eba1 + (W[i] as number)) | 0;
      e = d;
      d = c;
      c = (b << 30) | (b >>> 2);
      b = a;
      a = t;
    }
    for (; i < 60; i++) {
      const t = (((a << 5) | (a >>> 27)) + ((b & c) | (b & d) | (c & d)) + e + K3 + (W[i] as number)) | 0;
      e = d;
      d = c;
      c = (b << 30) | (b >>> 2);
      b = a;
      a = t;
    }
    for (; i < 80; i++) {
      const t = (((a << 5) | (a >>> 27)) + (b ^ c ^ d) + e + K4 + (W[i] as number)) | 0;
      e = d;
      d = c;
      c = (b << 30) | (b >>> 2);
      b = a;
      a = t;
    }
    h0 = (h0 + a) | 0;
    h1 = (h1 + b) | 0;
    h2 = (h2 + c) | 0;
    h3 = (h3 + d) | 0;
    h4 = (h4 + e) | 0;
  }
  return hex(h0) + hex(h1) + hex(h2) + hex(h3) + hex(h4);
}
