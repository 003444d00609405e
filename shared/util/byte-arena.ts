/**
 * Small typed arrays cut from shared buffers. Each ArrayBuffer costs about 180 bytes besides its
 * data (the buffer object and its backing store): for thousands of arrays of a few dozen bytes
 * that cost is most of their memory.
 *
 * The price: a chunk stays alive while any array cut from it does, so the arena serves only
 * arrays kept as long as their neighbours (the shared class maps of automata, kept for the
 * process's life), never those of a cache that forgets.
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
