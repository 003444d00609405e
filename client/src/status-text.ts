import { iconLabelText, visibleControls } from '../../shared/util/escape';

/** What the status bar item says about the active route file, with no `vscode`. */
export interface StatusFacts {
  /** Distinct routes, as `ci-routes list` counts them (see distinctRoutes). */
  routes: number;
  dialect: string;
  router?: string;
  routerSource?: string;
  php?: string;
  /** Which environment the route files run in, and its route file (RouteTableResult.environmentLine). */
  environment?: string;
  /** The analysis limits the evaluation reached: the count is then not all the file does. */
  limits?: string[];
  /** PHP's error that stops the file under some method, if one does: the count is then what the file declares without the failing statements. */
  stops?: string;
  /** The file's ci-routes diagnostics by severity. */
  problems: { errors: number; warnings: number; infos: number };
}

function plural(n: number, what: string): string {
  return `${n.toLocaleString('en-US')} ${what}${n === 1 ? '' : 's'}`;
}

/** The icon of the worst severity among the file's diagnostics: a check mark when there are none. */
export function severityIcon(problems: StatusFacts['problems']): string {
  if (problems.errors) return '$(error)';
  if (problems.warnings) return '$(warning)';
  if (problems.infos) return '$(info)';
  return '$(check)';
}

/** The item's text (`$(warning) 53 routes · bonfire · mx`) and tooltip. Words from the server cannot become icons. */
export function statusText(f: StatusFacts): { text: string; tooltip: string } {
  const router = f.router ? ` · ${iconLabelText(f.router)}` : '';
  const { errors, warnings, infos } = f.problems;
  const problems = [errors ? plural(errors, 'error') : '', warnings ? plural(warnings, 'warning') : '', infos ? plural(infos, 'other finding') : ''].filter(Boolean);
  return {
    text: `${severityIcon(f.problems)} ${plural(f.routes, 'route')} · ${iconLabelText(f.dialect)}${router}`,
    tooltip: [
      `CI Routes: ${plural(f.routes, 'route')} in this file (methods merged, as ci-routes list counts them); click to show the routes explorer`,
      problems.length ? `problems: ${problems.join(', ')}` : 'no problems found',
      ...(f.limits ?? []).map((l) => `not the whole file: ${visibleControls(l)}`),
      ...(f.stops ? [`PHP stops: ${visibleControls(f.stops)} (counted: what the file declares without the failing statements)`] : []),
      ...(f.router ? [`router ${visibleControls(f.router)}: ${visibleControls(f.routerSource ?? '')}`] : []),
      ...(f.php ? [visibleControls(f.php.replace(/^php/, 'PHP'))] : []),
      ...(f.environment ? [visibleControls(f.environment)] : []),
    ].join('\n'),
  };
}
