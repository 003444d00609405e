/** What each option of the Route library does, and the values completion offers for some of them. */

import { ROUTE_METHODS_FROM_TO } from '../../../library/route-api';

const AS_DOC =
  "Names the route: `Route::named('name')` returns its full `$from` (prefixes included). Reusing a name makes it return the last route declared with it.";

/** Per method, the options it reads (see optionKeys) with what each does. */
export const OPTION_DOCS: Record<string, Record<string, string>> = {
  resources: {
    controller: 'The controller written in the targets instead of `$name`: `controller/index`, `controller/show/$1`… (the paths keep `$name`).',
    module: 'An HMVC module put in front of the controller in every target: `module/name/index`, `module/name/show/$1`…',
    constraint: "The pattern of the id segment in the paths (default `([a-zA-Z0-9\\-_]+)`), e.g. `(:num)` for numeric ids. Keep it one group: targets pass it as `$1`.",
    offset: 'Added to the back-reference of the id in the targets: with 1, `show/$2` instead of `show/$1` (when `$name` has a group of its own).',
  },
  context: {
    offset: 'Added to every back-reference number in the targets (when `$name` has groups of its own).',
    home: 'Also routes the bare area: `name` → `name/<home>` (spec library) or `<home>` (Bonfire library).',
  },
};
for (const method of ROUTE_METHODS_FROM_TO) OPTION_DOCS[method] = { as: AS_DOC };

/** Values offered for `'constraint' => '|'`. */
export const CONSTRAINT_VALUES: { value: string; doc: string }[] = [
  { value: '(:num)', doc: 'Digits only (`[0-9]+`): numeric ids.' },
  { value: '(:any)', doc: 'Any one segment (`[^/]+`): every character except `/`.' },
  { value: '([a-zA-Z0-9\\-_]+)', doc: "The library's default: letters, digits, `-` and `_`." },
];

/** CodeIgniter 3's wildcards, offered in `$from` patterns. */
export const WILDCARDS: { value: string; regex: string; doc: string }[] = [
  { value: '(:any)', regex: '[^/]+', doc: 'Matches one URI segment: any characters except `/` (`[^/]+`). It is a group: `$n` in the target receives it.' },
  { value: '(:num)', regex: '[0-9]+', doc: 'Matches one segment of digits (`[0-9]+`). It is a group: `$n` in the target receives it.' },
];
