/** Stops evaluation when the step budget, the route limit or the nesting limit is reached. */
export class EvaluationLimit extends Error {}

export const DEFAULT_MAX_ROUTES = 200_000;
