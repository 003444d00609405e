/**
 * Strings as PCRE reads them without the `u` modifier, on bytes: each byte of the string's UTF-8
 * one character (0x00–0xFF). CodeIgniter matches route keys against URIs so (`#^KEY$#`): a
 * non-ASCII character is as many characters as it has bytes (`.` matches one of them).
 */

/** The string's UTF-8 bytes, one character each (an ASCII string is returned as it is). */
export function utf8Bytes(s: string): string {
  if (/^[\x00-\x7f]*$/.test(s)) return s;
  const bytes = new TextEncoder().encode(s);
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += String.fromCharCode(bytes[i]!);
  return out;
}

/** The text of bytes written as utf8Bytes writes them (bytes that are not UTF-8 read as U+FFFD). */
export function fromUtf8Bytes(bytes: string): string {
  if (/^[\x00-\x7f]*$/.test(bytes)) return bytes;
  const array = new Uint8Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) array[i] = bytes.charCodeAt(i) & 0xff;
  return new TextDecoder().decode(array);
}
