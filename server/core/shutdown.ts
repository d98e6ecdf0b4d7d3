/**
 * Bounded, complete shutdown (docs/faults.md "Stopping"): steps run in order, each with its own
 * timeout, and a step that throws or hangs never skips the ones after it. An unreachable Telegram
 * makes grammY's bot.stop() throw; the requests in flight and the database still close.
 */

export interface Step {
  name: string;
  /** Past this the step is given up and the next one starts. */
  timeoutMs: number;
  run(): Promise<unknown>;
}

export interface StepResult {
  name: string;
  ms: number;
  /** Why it did not finish cleanly: the error, or "timed out". */
  failure?: string;
}

/** Runs `step` to its end, its failure or its timeout, whichever comes first; never throws. */
export const runStep = async (step: Step, now: () => number = Date.now): Promise<StepResult> => {
  const started = now();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`timed out after ${step.timeoutMs} ms`), step.timeoutMs);
  });
  const failure = await Promise.race([
    // `async` so a step that throws before returning its promise is caught too.
    (async () => step.run())().then(
      () => undefined,
      (err: unknown) => (err instanceof Error ? err.message : String(err)),
    ),
    timedOut,
  ]);
  clearTimeout(timer);
  return { name: step.name, ms: now() - started, ...(failure !== undefined ? { failure } : {}) };
};

/** Runs the steps one after another; every step runs whatever the earlier ones did. */
export const runSteps = async (steps: readonly Step[]): Promise<StepResult[]> => {
  const results: StepResult[] = [];
  for (const step of steps) results.push(await runStep(step));
  return results;
};

/** Runs independent steps side by side (the bot, the broadcast worker, the jobs); never throws. */
export const runParallel = (steps: readonly Step[]): Promise<StepResult[]> => Promise.all(steps.map((s) => runStep(s)));

/** "background 12 ms, requests 40 ms, database 3 ms (failed: …)" for the last log line. */
export const describeSteps = (results: readonly StepResult[]): string =>
  results.map((r) => `${r.name} ${r.ms} ms${r.failure !== undefined ? ` (${r.failure})` : ''}`).join(', ');

/** The sum of the steps' timeouts: the longest a shutdown can take. */
export const stepsBudgetMs = (steps: readonly Step[]): number => steps.reduce((sum, s) => sum + s.timeoutMs, 0);

/**
 * Fastify's close waits for the requests in flight and runs the API's onClose hooks (grouped
 * writes are flushed there). It closes the connections idle when it starts; a keep-alive
 * connection whose request finishes later would hold it until its keep-alive timeout (72 s).
 */
export const closeServer = async (app: { close(): Promise<unknown>; server: { closeIdleConnections(): void } }): Promise<void> => {
  const sweep = setInterval(() => app.server.closeIdleConnections(), 100);
  try {
    await app.close();
  } finally {
    clearInterval(sweep);
  }
};

let draining = false;

/** True from the first SIGTERM/SIGINT on: /readyz answers 503 "draining" (docs/operations.md "Probes"). */
export const isDraining = (): boolean => draining;

/**
 * On SIGTERM or SIGINT runs `steps` once and exits: 0 when the requests and the database closed
 * (an outside service that failed to stop is logged, not fatal), 1 otherwise. A last-resort timer
 * exits 1 a second after the steps' budget in case something blocks the event loop.
 */
export const installShutdown = (steps: readonly Step[], log: (m: string) => void = console.log): void => {
  let stopping: Promise<number> | undefined;
  const shutdown = (signal: string): Promise<number> =>
    (stopping ??= (async () => {
      // Before any step: a balancer polling /readyz stops sending new work while the steps run.
      draining = true;
      log(`${signal}: finishing requests in flight and shutting down…`);
      const budgetMs = stepsBudgetMs(steps) + 1_000;
      const force = setTimeout(() => {
        console.error(`Shutdown took longer than ${budgetMs / 1000} s; exiting anyway.`);
        process.exit(1);
      }, budgetMs);
      force.unref();
      const results = await runSteps(steps);
      clearTimeout(force);
      log(`Stopped (${describeSteps(results)}).`);
      const ownFailed = results.some((r) => r.failure !== undefined && (r.name === 'requests' || r.name === 'database'));
      return ownFailed ? 1 : 0;
    })());
  // `on`, not `once`: a process manager and npm may both deliver the signal (systemd signals the
  // whole group, npm forwards it), and a second one must not kill a shutdown half-way.
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => void shutdown(signal).then((code) => process.exit(code)));
};
