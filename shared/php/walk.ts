import type { PhpNode } from './ast';

/**
 * Calls `visit` on every node under `roots` (the objects with a `kind`), without recursion: deep
 * nesting must not overflow the stack. `visit` returning false skips the node's children.
 * Locations are not walked into, and only own properties are: php-parser's node prototypes carry
 * enumerable methods.
 */
export function walkNodes(roots: readonly unknown[], visit: (node: PhpNode) => boolean | void): void {
  const stack: unknown[] = [...roots];
  while (stack.length > 0) {
    const value = stack.pop();
    if (value === null || typeof value !== 'object') continue;
    if (Array.isArray(value)) {
      for (const v of value) if (v !== null && typeof v === 'object') stack.push(v);
      continue;
    }
    const node = value as PhpNode;
    if (typeof node.kind !== 'string' || visit(node) === false) continue;
    const keys = Object.keys(node);
    for (let k = 0; k < keys.length; k++) {
      const key = keys[k];
      if (key === 'loc') continue;
      const child = node[key];
      if (child !== null && typeof child === 'object') stack.push(child);
    }
  }
}
