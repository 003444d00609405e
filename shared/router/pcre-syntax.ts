/**
 * Finds structural errors that make PCRE reject a pattern (unbalanced groups, an unterminated
 * class, a quantifier with nothing to repeat, a reversed range). Only these are reported as
 * invalid: a pattern that merely uses PCRE features the analysers lack is not an error.
 */
export function pcreSyntaxError(regex: string): string | undefined {
  let depth = 0;
  let atomStart = true; // at a position where a quantifier has nothing to repeat
  for (let i = 0; i < regex.length; i++) {
    const c = regex[i];
    if (c === '\\') {
      if (i + 1 >= regex.length) return 'it ends with a lone backslash';
      i++;
      atomStart = false;
      continue;
    }
    if (c === '[') {
      const end = classEnd(regex, i);
      if (end < 0) return 'a character class [ is never closed';
      const bad = reversedRange(regex.slice(i + 1, end));
      if (bad) return `the range ${bad} is out of order`;
      i = end;
      atomStart = false;
      continue;
    }
    if (c === '(') {
      depth++;
      atomStart = true;
      if (regex[i + 1] === '?') {
        // (?:, (?=, (?<name>, (?P<name> ... : skip the group kind marker
        const m = /^\?(?:[:=!>|]|<[=!]|P?<[A-Za-z_]\w*>|'[A-Za-z_]\w*'|[imsxUJn-]+[:)]|P[=>]\w+\)|R\)|\d+\)|\()/.exec(regex.slice(i + 1));
        if (!m) return 'a group starts with an unknown (? construct';
        i += m[0].length;
        if (m[0].endsWith(')')) {
          depth--;
          atomStart = false;
        }
      }
      continue;
    }
    if (c === ')') {
      if (depth === 0) return "a ')' has no matching '('";
      depth--;
      atomStart = false;
      continue;
    }
    if (c === '|') {
      atomStart = true;
      continue;
    }
    if (c === '*' || c === '+' || c === '?') {
      if (atomStart) return `'${c}' has nothing to repeat`;
      // lazy/possessive suffix
      if (regex[i + 1] === '?' || regex[i + 1] === '+') i++;
      atomStart = false;
      continue;
    }
    if (c === '{' && /^\{\d+(,\d*)?\}/.test(regex.slice(i))) {
      if (atomStart) return 'a {n} quantifier has nothing to repeat';
      const m = /^\{(\d+)(?:,(\d*))?\}/.exec(regex.slice(i))!;
      if (m[2] !== undefined && m[2] !== '' && Number(m[2]) < Number(m[1])) return `the quantifier ${m[0]} is out of order`;
      i += m[0].length - 1;
      continue;
    }
    atomStart = false;
  }
  if (depth > 0) return "a '(' is never closed";
  return undefined;
}

function classEnd(s: string, open: number): number {
  let i = open + 1;
  if (s[i] === '^') i++;
  if (s[i] === ']') i++;
  for (; i < s.length; i++) {
    if (s[i] === '\\') i++;
    else if (s[i] === '[' && s[i + 1] === ':') {
      const e = s.indexOf(':]', i + 2);
      if (e > 0) i = e + 1;
    } else if (s[i] === ']') return i;
  }
  return -1;
}

function reversedRange(body: string): string | undefined {
  const chars: string[] = [];
  for (let i = 0; i < body.length; i++) {
    if (body[i] === '\\') {
      chars.push(body.slice(i, i + 2));
      i++;
    } else chars.push(body[i]);
  }
  for (let i = 1; i + 1 < chars.length; i++) {
    if (chars[i] !== '-' || chars[i - 1].length !== 1 || chars[i + 1].length !== 1) continue;
    if (chars[i - 1].charCodeAt(0) > chars[i + 1].charCodeAt(0)) return `${chars[i - 1]}-${chars[i + 1]}`;
  }
  return undefined;
}
