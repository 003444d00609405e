/**
 * Strips the one cursor marker from a source text: `withCursor("Route::get('a|')")` gives the
 * text without it and the offset where it was. Throws when the marker is missing or repeated, so
 * a test never silently uses the wrong position.
 */
export function withCursor(src: string, marker = '|'): { text: string; offset: number } {
  const offset = src.indexOf(marker);
  if (offset < 0) throw new Error(`no cursor marker ${JSON.stringify(marker)} in the source`);
  if (src.indexOf(marker, offset + marker.length) >= 0) throw new Error(`more than one cursor marker ${JSON.stringify(marker)}`);
  return { text: src.slice(0, offset) + src.slice(offset + marker.length), offset };
}
