/**
 * `s`, as a string that does not hold the text it was cut from. V8 makes a slice of 13 characters
 * or more a view into its parent, which then stays in memory as long as the slice: a controller's
 * class name kept its whole file (at 10,000 routes, 550 controllers' sources, 2.9 MB). The
 * concatenation is flattened into a string of its own before it is sliced.
 */
export function detached(s: string): string {
  return s.length < 13 ? s : ` ${s}`.slice(1);
}
