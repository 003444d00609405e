/**
 * The literal first segments of a table's keys, numbered. A table's keys are then an Int32Array
 * of segment ids (-1: a wild key, without a literal first segment): finding the keys of the
 * buckets an edit touched scans that array, not 10,000 strings spread over the heap (a cache miss
 * each: about a millisecond per method and edit at 10,000 declarations).
 */
export class SegmentIds {
  private readonly idOf = new Map<string, number>();
  private readonly names: string[] = [];

  /** The segment's id, numbered on first sight; -1 for none (a wild key). */
  idFor(segment: string | null): number {
    if (segment === null) return -1;
    let id = this.idOf.get(segment);
    if (id === undefined) {
      id = this.names.length;
      this.names.push(segment);
      this.idOf.set(segment, id);
    }
    return id;
  }

  /** The segment numbered `id`. */
  name(id: number): string {
    return this.names[id]!;
  }

  /** Segments numbered so far (ids are below it). */
  get size(): number {
    return this.names.length;
  }
}
