import { indexPhpFile } from './php-index';

/**
 * The quick fix of a target whose controller lacks its method: the text of a public method
 * inserted before the class's closing brace. Plain data: the host reads the controller file and
 * applies the edit there.
 */

/** What the fix creates: a method of a controller class, with the arguments its routes pass. */
export interface MethodToCreate {
  /** The class, as the target names it (compared without case, as PHP does). */
  className: string;
  method: string;
  /** Parameters: as many as the route passing the most arguments passes… */
  params: number;
  /** …of which those every route passes are required (the others default to null). */
  required: number;
}

/** A PHP name CodeIgniter can route to: a valid identifier not starting with `_` (CodeIgniter refuses those). */
export function isRoutableMethodName(name: string): boolean {
  return /^[A-Za-z\x80-\uffff][A-Za-z0-9_\x80-\uffff]*$/u.test(name) && name.length <= 200;
}

const MAX_PARAMS = 32;

/**
 * Where and what to insert into a controller file's text to give its class the method, or why
 * not: the class is not in the file (or has no closing brace), or the file declares a method of
 * that name already (perhaps not public: another would be a fatal "Cannot redeclare").
 */
export function createMethodEdit(text: string, m: MethodToCreate): { offset: number; newText: string } | { refused: string } {
  if (!isRoutableMethodName(m.method)) return { refused: `'${m.method}' is not a method name CodeIgniter can route to` };
  if (!Number.isInteger(m.params) || !Number.isInteger(m.required) || m.params < 0 || m.params > MAX_PARAMS || m.required < 0 || m.required > m.params) return { refused: 'the parameters are not known' };
  const classes = indexPhpFile(text, { shortTags: true }).controllers;
  const cls = classes.find((c) => c.className.toLowerCase() === m.className.toLowerCase()) ?? (classes.length === 1 ? classes[0] : undefined);
  if (!cls || cls.bodyEnd === undefined || text[cls.bodyEnd] !== '}') return { refused: `the file has no class ${m.className} with a closing brace` };
  const body = text.slice(cls.classSpan.end, cls.bodyEnd);
  const name = m.method.toLowerCase();
  for (const found of body.matchAll(/\bfunction\s+&?\s*([A-Za-z_\x80-\uffff][A-Za-z0-9_\x80-\uffff]*)\s*\(/gu)) {
    if (found[1].toLowerCase() === name) return { refused: `${cls.className} declares ${found[1]}() already` };
  }
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  // Indented as the class's first method is, else by four spaces.
  const first = cls.methods[0];
  const lineStart = first ? text.lastIndexOf('\n', first.span.start - 1) + 1 : -1;
  const indentation = first ? /^[ \t]*/.exec(text.slice(lineStart, first.span.start))![0] : '';
  const indent = indentation !== '' ? indentation : '    ';
  const params = Array.from({ length: m.params }, (_, i) => `$arg${i + 1}${i < m.required ? '' : ' = null'}`).join(', ');
  const method = `${indent}public function ${m.method}(${params})${eol}${indent}{${eol}${indent}}${eol}`;
  // On the brace's own line: the method goes on the lines before it, after a blank line.
  const braceLine = text.lastIndexOf('\n', cls.bodyEnd - 1) + 1;
  if (text.slice(braceLine, cls.bodyEnd).trim() === '') {
    const blank = /\n[ \t]*\r?\n[ \t]*$/.test(text.slice(0, braceLine)) || /\{[ \t]*\r?\n$/.test(text.slice(0, braceLine)) ? '' : eol;
    return { offset: braceLine, newText: `${blank}${method}` };
  }
  return { offset: cls.bodyEnd, newText: `${eol}${method}` };
}
