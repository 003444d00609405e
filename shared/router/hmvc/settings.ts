import { toPhpString } from '../../runtime/convert';
import { Unknown, type Value } from '../../runtime/values';
import { noWarnings } from '../ci-router';
import { RouterStop } from './router-stop';

/** PHP's empty() on a router string or setting. */
export function phpEmpty(v: Value | undefined): boolean {
  return v === undefined || v === null || v === '' || v === '0' || v === false || v === 0;
}

/** A router setting as a string, or the request stops when it is not known statically. */
export function settingText(v: Value | undefined): string {
  const text = toPhpString(v ?? null, noWarnings);
  if (text instanceof Unknown) throw new RouterStop('unknown', text.reason);
  return text;
}
