/** What the x-account feature offers the routes and the other features: they import it from here and nowhere else (docs/architecture.md, "Server layout"). */
export { beginXLogin, completeXLogin, pruneXStates } from './x-connect.ts';
export { xAccountSettings, xCallbackUrl } from './settings.ts';
