import { sameRecordFields, type RecordFields, type RecordedSite, type RouteRecord } from './records';
import type { MethodIndex } from '../runtime/methods';

/**
 * The records one library call made, by row, with the methods whose tables each is in: a route
 * the library declares under several methods (any(), context(), block()) is one object in each
 * of their tables, not one per method (a context()-heavy file holds eight times fewer). A call's
 * own only: not those of an earlier run of the same call (a loop, a condition run under each
 * branch's methods), nor those of the calls its callbacks make.
 */
export class CallRecords {
  private site: RecordedSite | undefined;
  private rows: Map<string, { record: RouteRecord; methods: number }> | undefined;

  /** The record made for another method that this method would make as it is; never one already in this method's table. */
  madeForAnotherMethod(m: MethodIndex, fields: RecordFields): RouteRecord | undefined {
    if (fields.site !== this.site) return undefined;
    const made = this.rows?.get(fields.row ?? '');
    if (made === undefined || made.methods & (1 << m) || !sameRecordFields(made.record, fields)) return undefined;
    made.methods |= 1 << m;
    return made.record;
  }

  /** A record made for method `m`. */
  made(m: MethodIndex, record: RouteRecord): void {
    if (record.site !== this.site || this.rows === undefined) {
      this.site = record.site;
      this.rows = new Map();
    }
    this.rows.set(record.row ?? '', { record, methods: 1 << m });
  }
}
