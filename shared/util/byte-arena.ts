/**
 * Small typed arrays cut from shared buffers. Each ArrayBuffer costs about 180 bytes besides its
 * data (the buffer object and its backing store); a large file's automata are thousands of
 * arrays of a few hundred bytes, so that cost was near half of their memory.
 *
 * The price: a chunk stays alive while any array cut from it does. Chunks are small, and the
 * arena serves only arrays kept for as long as their neighbours (the automata of a file's keys,
 * not the short-lived ones of literal keys).
 */
export class ByteArena {
  private chunk: ArrayBuffer | undefined;
  private used = 0;

  constructor(private readonly chunkBytes = 16 * 1024) {}

  /** A place for `bytes` bytes aligned to `align` (the element size of the view to create there). */
  take(bytes: number, align: number): { buffer: ArrayBuffer; offset: number } {
    // A large array gets a buffer of its own: it would leave most of a chunk empty.
    if (bytes > this.chunkBytes / 4) return { buffer: new ArrayBuffer(bytes), offset: 0 };
    let offset = Math.ceil(this.used / align) * align;
    if (this.chunk === undefined || offset + bytes > this.chunk.byteLength) {
      this.chunk = new ArrayBuffer(this.chunkBytes);
      offset = 0;
    }
    this.used = offset + bytes;
    return { buffer: this.chunk, offset };
  }
}
