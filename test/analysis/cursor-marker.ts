/**
 * Strips the cursor marker from a test source: `withCursor("Route::get('a|')")` gives the text
 * without it and the offset where it stood. Throws when the marker is missing or repeated, so a
 * test never runs at the wrong position (pass another marker when the PHP itself needs `|`).
 */
export function withCursor(src: string, marker = '|'): { text: string; offset: number } {
  const offset = src.indexOf(marker);
  if (offset < 0) throw new Error(`no cursor marker ${JSON.stringify(marker)} in the source`);
  if (src.indexOf(marker, offset + marker.length) >= 0) throw new Error(`more than one cursor marker ${JSON.stringify(marker)} in the source`);
  return { text: src.slice(0, offset) + src.slice(offset + marker.length), offset };
}
