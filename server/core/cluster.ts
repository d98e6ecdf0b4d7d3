/**
 * `WORKERS=N npm start`: the primary process forks N API workers that share one port through
 * node:cluster (docs/deploy.md "Several workers on one host"). The primary opens no database and
 * serves no port: it restarts a worker that dies, merges the workers' metrics over IPC for the
 * worker a scrape reaches (with METRICS_TOKEN; server/core/metrics.ts), and on SIGTERM/SIGINT passes
 * the signal on and exits once every worker has finished its own bounded shutdown (server/core/shutdown.ts). Jobs and
 * broadcast pacing need no flag (docs/faults.md); only the bot's long polling, which Telegram
 * allows one client at a time, runs in worker 0 alone.
 */
import cluster, { type Worker } from 'node:cluster';

// Set by the primary for its workers; not a setting (docs/configuration.md, WORKERS).
const indexVar = 'MONEY_WORKER_INDEX';

/** A worker that crashes this soon after starting is not restarted in a tight loop. */
const restartDelayMs = 1_000;

/** True in a single process and in worker 0: the one process that may long-poll Telegram. */
export const pollsUpdates = (): boolean => !cluster.isWorker || process.env[indexVar] === '0';

/**
 * With WORKERS > 1 in the primary: forks the workers and returns true (the caller then does nothing
 * else). In a worker, or with WORKERS=1, returns false and the caller serves as usual.
 */
export const startCluster = (workers: number, log: (m: string) => void = console.log): boolean => {
  if (workers <= 1 || !cluster.isPrimary) return false;
  let stopping = false;
  let exitCode = 0;
  const byIndex = new Map<number, Worker>();
  const fork = (index: number) => {
    // The primary already built the client; workers never build it again at once.
    const w = cluster.fork({ [indexVar]: String(index), SKIP_CLIENT_BUILD: '1' });
    byIndex.set(index, w);
    let listened = false;
    w.once('listening', () => (listened = true));
    w.on('exit', (code, signal) => {
      byIndex.delete(index);
      if (stopping) {
        if (code !== 0) exitCode = 1;
        if (byIndex.size === 0) {
          log('All workers stopped.');
          process.exit(exitCode);
        }
        return;
      }
      // A worker that never listened failed to start (configuration, port, database): a restart
      // would fail the same way, so everything stops with the worker's message above.
      if (!listened) {
        log(`Worker ${index} could not start; stopping.`);
        exitCode = 1;
        stopAll('SIGTERM');
        return;
      }
      log(`Worker ${index} exited (${signal ?? code}); starting it again.`);
      setTimeout(() => fork(index), restartDelayMs);
    });
  };
  const stopAll = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: stopping ${byIndex.size} workers…`);
    // Workers may also get the signal from the terminal or systemd; a second one is harmless.
    for (const w of byIndex.values()) w.process.kill(signal);
    if (byIndex.size === 0) process.exit(exitCode);
  };
  for (let i = 0; i < workers; i++) fork(i);
  log(`MONEY primary ${process.pid}: ${workers} API workers on one port.`);
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => stopAll(signal));
  return true;
};
