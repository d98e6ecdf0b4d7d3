/** What the console feature offers the routes and the other features: they import it from here and nowhere else (docs/architecture.md, "Server layout"). */
export { refreshConsoleAggregates } from './console-aggregates.ts';
export { adminBroadcast, cancelBroadcast, enqueueSegmentBroadcast, parseSegment, recentBroadcasts } from './admin-broadcasts.ts';
export { createTask, listAdminTasks, parseTaskInput, reorderTasks, updateTask } from './admin-tasks.ts';
export { readDashboard } from './dashboard.ts';
export { verifyLoginWidget } from './login-widget.ts';
export { cheatSignals, playerDetail, playerLedger, playerReferrals, recentPlayers, searchPlayers, setFrozen } from './players.ts';
export { actorOf, adminOf, checkSameOrigin, clearedCookieHeader, createAdminGuard, createSession, deleteSession, sessionCookieHeader } from './sessions.ts';
export type { SessionDeps } from './sessions.ts';
export { adminIdsOf, botAdminOf, consoleSettings } from './settings.ts';
