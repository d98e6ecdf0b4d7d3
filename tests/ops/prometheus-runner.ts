/**
 * A real Prometheus for a test: Debian's /usr/bin/prometheus on a spare port, with a temporary
 * config and TSDB directory, scraping one target every second with a bearer token. Every wait is
 * bounded; `stop` ends the process (SIGTERM, then SIGKILL) and removes its directory.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prometheusPath } from './prometheus-binaries.ts';

export interface Sample {
  metric: Record<string, string>;
  value: number;
}

export interface RunningPrometheus {
  base: string;
  /** An instant query through /api/v1/query; throws with Prometheus's message when it refuses it. */
  query(expr: string): Promise<Sample[]>;
  /** Queries `expr` until `done` holds or `timeoutMs` passes; returns the last answer either way. */
  queryUntil(expr: string, done: (samples: Sample[]) => boolean, timeoutMs?: number): Promise<Sample[]>;
  output(): string;
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const sparePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      s.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });

const configOf = (target: string, token: string) => `global:
  scrape_interval: 1s
  scrape_timeout: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: money
    metrics_path: /metrics
    authorization:
      type: Bearer
      credentials: ${JSON.stringify(token)}
    static_configs:
      - targets: [${JSON.stringify(target)}]
`;

/** Starts Prometheus scraping `target` (host:port) at /metrics with `token`; resolves once it is ready. */
export const startPrometheus = async (opts: { target: string; token: string; readyTimeoutMs?: number }): Promise<RunningPrometheus> => {
  const dir = mkdtempSync(join(tmpdir(), 'money-prometheus-'));
  const config = join(dir, 'prometheus.yml');
  writeFileSync(config, configOf(opts.target, opts.token));
  const port = await sparePort();
  const base = `http://127.0.0.1:${port}`;
  const proc = spawn(
    prometheusPath,
    [`--config.file=${config}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--storage.tsdb.retention.time=1h', '--log.level=warn'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const stop = async () => {
    if (proc.exitCode === null && proc.signalCode === null) {
      proc.kill('SIGTERM');
      const killed = await Promise.race([exited.then(() => true), sleep(10_000).then(() => false)]);
      if (!killed) {
        proc.kill('SIGKILL');
        await exited;
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };

  const query = async (expr: string): Promise<Sample[]> => {
    const res = await fetch(`${base}/api/v1/query?${new URLSearchParams({ query: expr })}`, { signal: AbortSignal.timeout(5_000) });
    const body = (await res.json()) as { status: string; error?: string; data?: { resultType: string; result: { metric: Record<string, string>; value: [number, string] }[] | [number, string] } };
    if (body.status !== 'success' || body.data === undefined) throw new Error(`Prometheus refused ${expr}: ${body.error ?? res.status}`);
    const { resultType, result } = body.data;
    if (resultType === 'scalar') return [{ metric: {}, value: Number((result as [number, string])[1]) }];
    return (result as { metric: Record<string, string>; value: [number, string] }[]).map((r) => ({ metric: r.metric, value: Number(r.value[1]) }));
  };

  const deadline = Date.now() + (opts.readyTimeoutMs ?? 30_000);
  for (;;) {
    if (proc.exitCode !== null) {
      await stop();
      throw new Error(`prometheus exited (${proc.exitCode}) before it was ready:\n${out}`);
    }
    const ready = await fetch(`${base}/-/ready`, { signal: AbortSignal.timeout(1_000) }).then((r) => r.ok, () => false);
    if (ready) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`prometheus was not ready within ${opts.readyTimeoutMs ?? 30_000} ms:\n${out}`);
    }
    await sleep(100);
  }

  return {
    base,
    query,
    queryUntil: async (expr, done, timeoutMs = 30_000) => {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const samples = await query(expr);
        if (done(samples) || Date.now() > until) return samples;
        await sleep(250);
      }
    },
    output: () => out,
    stop,
  };
};
