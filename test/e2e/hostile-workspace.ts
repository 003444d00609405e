import * as fs from 'node:fs';
import * as path from 'node:path';

/** Every link in the hostile workspace runs this command: it opens a terminal. */
export const HOSTILE_COMMAND = 'command:workbench.action.terminal.new';
/** Every label and image in the hostile workspace's text contains this marker. */
export const HOSTILE_MARKER = 'pwn';
export const HOSTILE_IMAGE_HOST = 'example.invalid';

/** A route name that leaves a Markdown code span (its backticks) and holds an image and a command link. */
export const HOSTILE_NAME = `n\`![pwn-img](https://${HOSTILE_IMAGE_HOST}/pwn.png)[pwn-name](${HOSTILE_COMMAND})\``;
/** A route name that is an image and a command link as it stands (a table cell shows it as Markdown). */
export const HOSTILE_PLAIN_NAME = `![pwn-img2](https://${HOSTILE_IMAGE_HOST}/pwn2.png)[pwn-name2](${HOSTILE_COMMAND})`;

/**
 * An application whose workspace text is written to be rendered: a `.vscode/settings.json` with
 * an unknown `ciRoutes.diagnostics` key that is a command link (the server warns about unknown
 * codes, quoting the key), and a route file whose targets are a command link and an image and whose route
 * names hold images and command links. Returns the route file's path.
 */
export function writeHostileWorkspace(app: string): string {
  fs.mkdirSync(path.join(app, '.vscode'), { recursive: true });
  fs.writeFileSync(
    path.join(app, '.vscode', 'settings.json'),
    JSON.stringify({ 'ciRoutes.diagnostics': { [`[pwn-setting](${HOSTILE_COMMAND})`]: 'off' } }, null, 2),
  );
  const routes = path.join(app, 'application', 'config', 'routes.php');
  fs.mkdirSync(path.dirname(routes), { recursive: true });
  fs.writeFileSync(
    routes,
    [
      '<?php',
      `Route::get('hostile', '[pwn-target](${HOSTILE_COMMAND})/run', ['as' => '${HOSTILE_NAME}']);`,
      `Route::get('image', '![pwn-timg](https://${HOSTILE_IMAGE_HOST}/t.png)', ['as' => '${HOSTILE_PLAIN_NAME}']);`,
      `Route::named('${HOSTILE_NAME}');`,
      '$route = Route::map($route);',
      '',
    ].join('\n'),
  );
  return routes;
}
