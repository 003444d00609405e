import * as fs from 'node:fs';

/** Adds two mistakes before map() in a copy of the example routes file: a duplicate and Route::resource(). */
export function breakRoutes(routesFile: string): void {
  const text = fs.readFileSync(routesFile, 'utf8');
  const broken = text.replace('$route = Route::map($route);', "Route::get('articles', 'blog/posts/index');\nRoute::resource('photos');\n$route = Route::map($route);");
  if (broken === text) throw new Error(`no map() call in ${routesFile}`);
  fs.writeFileSync(routesFile, broken);
}
