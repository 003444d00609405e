import type { Check } from '../core/context';
import { finding } from '../core/types';

/** The first open tag of a file: `<?php`, `<?=` or the short `<?` (RE2 not needed: a fixed prefix, linear). */
function firstShortTag(text: string): number | undefined {
  for (let at = text.indexOf('<?'); at >= 0; at = text.indexOf('<?', at + 2)) {
    const after = text.slice(at + 2, at + 5).toLowerCase();
    if (after === 'php' || after.startsWith('=')) return undefined;
    // `<?xml` in inline HTML is text; anything else opens PHP under short_open_tag.
    if (after === 'xml') continue;
    return at;
  }
  return undefined;
}

/**
 * `short-open-tag`: the file opens PHP with the short `<?`, which PHP reads as PHP only when
 * php.ini's short_open_tag is On. The php.ini files PHP ships (and Debian's and Ubuntu's) set it
 * Off: PHP then prints the file as text and sets none of its routes. The analysis reads it as PHP.
 */
export const shortOpenTag: Check = ({ text }) => {
  const at = firstShortTag(text);
  if (at === undefined) return [];
  return [
    finding('short-open-tag', { start: at, end: at + 2 }, "This file opens PHP with '<?', a short open tag: PHP runs what follows only when php.ini's short_open_tag is On. The php.ini files PHP ships set it Off (as Debian's and Ubuntu's do), and PHP then prints the file as text: none of its routes exist.", {
      details: "It is analysed as PHP, as under short_open_tag On. Write '<?php' to be read as PHP whatever php.ini says.",
      fixes: [{ title: "Write '<?php'", edits: [{ span: { start: at, end: at + 2 }, newText: '<?php' }], preferred: true }],
    }),
  ];
};
