/**
 * PHP's `sscanf($text, '%[^/]/%[^/]/…/%s')` with `parts` conversions, as the routers split a
 * default controller or 404_override string: each `%[^/]` takes one or more characters up to a
 * `/`, the last conversion `%s` skips white space and takes what follows up to the next white
 * space. Scanning stops at the first conversion or `/` that does not match; the parts found so
 * far are returned (their count is sscanf's return value).
 */
export function scanSlashParts(text: string, parts: number): string[] {
  const found: string[] = [];
  let pos = 0;
  for (let i = 0; i < parts; i++) {
    if (i === parts - 1) {
      const rest = /^\s*(\S+)/.exec(text.slice(pos));
      if (rest) found.push(rest[1]);
      break;
    }
    const part = /^[^/]+/.exec(text.slice(pos));
    if (!part) break;
    found.push(part[0]);
    pos += part[0].length;
    if (text[pos] !== '/') break;
    pos++;
  }
  return found;
}
