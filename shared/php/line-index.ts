/** Converts between offsets and 0-based line/character positions (UTF-16, as LSP counts). */
export class LineIndex {
  private readonly starts: Uint32Array;

  /**
   * The index of a text, shared with whoever asked for the same text last: an edit's evaluation,
   * its checks' messages and the server's conversions all ask about the document's new text (at
   * 10,000 declarations each index read 600 KB anew). A pure function of the string, kept for the
   * last few texts only.
   */
  static of(text: string): LineIndex {
    const recent = recentIndexes;
    for (let i = 0; i < recent.length; i++) {
      const index = recent[i];
      // Same length first: comparing two different texts of the same length reads them.
      if (index.text.length === text.length && index.text === text) return index;
    }
    const index = new LineIndex(text);
    if (recent.length === RECENT_TEXTS) recent.pop();
    recent.unshift(index);
    return index;
  }

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

/** The indexes LineIndex.of() keeps: the document being edited and one other file (an included one, a related place's). */
const RECENT_TEXTS = 2;
const recentIndexes: LineIndex[] = [];
