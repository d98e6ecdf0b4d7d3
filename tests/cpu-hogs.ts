/**
 * Busy neighbours: child processes that spin on the CPU, so that a protection is tested beside a
 * process that starves ours of CPU, as on a shared host (docs/faults.md "Overload").
 */
import { spawn, type ChildProcess } from 'node:child_process';

export interface CpuHogs {
  stop(): Promise<void>;
}

/** Starts `n` processes that each keep one core busy until stop() (or until this process exits). */
export const startCpuHogs = (n: number): CpuHogs => {
  const hogs: ChildProcess[] = Array.from({ length: n }, () =>
    // A hog that outlives a crashed test still ends: it stops itself after two minutes.
    spawn(process.execPath, ['-e', 'const end = Date.now() + 120000; while (Date.now() < end) {}'], { stdio: 'ignore' }),
  );
  const kill = () => hogs.forEach((h) => h.exitCode === null && h.kill('SIGKILL'));
  process.once('exit', kill);
  return {
    stop: async () => {
      process.off('exit', kill);
      await Promise.all(
        hogs.map((h) =>
          h.exitCode !== null || h.signalCode !== null
            ? Promise.resolve()
            : new Promise<void>((resolve) => {
                h.once('exit', () => resolve());
                h.kill('SIGKILL');
              }),
        ),
      );
    },
  };
};
