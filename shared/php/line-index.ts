/** Converts between offsets and 0-based line/character positions (UTF-16, as LSP counts). */
export class LineIndex {
  private readonly starts: Uint32Array;

  constructor(readonly text: string) {
    // 32-bit starts in a buffer that doubles: a number array grown line by line allocated four
    // times its final size, and every edit of a large route file builds one.
    let starts = new Uint32Array(1024);
    let lines = 1;
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) {
      if (lines === starts.length) {
        const grown = new Uint32Array(lines * 2);
        grown.set(starts);
        starts = grown;
      }
      starts[lines++] = i + 1;
    }
    this.starts = starts.slice(0, lines);
  }

  get lineCount(): number {
    return this.starts.length;
  }

  /** 0-based line of an offset. */
  lineOf(offset: number): number {
    const s = this.starts;
    let lo = 0;
    let hi = s.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (s[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  position(offset: number): { line: number; character: number } {
    const o = Math.max(0, Math.min(offset, this.text.length));
    const line = this.lineOf(o);
    return { line, character: o - this.starts[line] };
  }

  offset(line: number, character: number): number {
    if (line < 0) return 0;
    if (line >= this.starts.length) return this.text.length;
    const start = this.starts[line];
    const end = line + 1 < this.starts.length ? this.starts[line + 1] - 1 : this.text.length;
    return Math.min(start + Math.max(0, character), Math.max(start, end));
  }

  lineStart(line: number): number {
    return this.starts[Math.max(0, Math.min(line, this.starts.length - 1))];
  }
}
