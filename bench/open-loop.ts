/**
 * An open-loop HTTP/1.1 load generator: requests are sent on a schedule (`rate` a second, spread
 * over `connections` keep-alive connections, pipelined), never waiting for answers, so a slow
 * server meets the load a crowd of players would give it instead of a load that politely slows
 * down with it. Each answer's time is taken from the moment its request was due, so nothing the
 * generator does hides a wait. Run in a process of its own, so that its CPU can be reported.
 */
import { connect, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';

export interface OpenLoopOptions {
  port: number;
  rate: number;
  durationS: number;
  connections: number;
  /** The n-th request's bytes (a whole HTTP/1.1 request). */
  request(n: number): Buffer;
  /** Called for each answer with the time since its request was due. */
  answered(n: number, status: number, body: string, ms: number): void;
  /** How long to wait for the answers still due after the last request is sent. */
  drainMs?: number;
}

export interface OpenLoopResult {
  sent: number;
  answered: number;
  /** Requests whose connection failed before their answer (reset, closed). */
  errors: number;
  /** Requests still unanswered when the drain ended. */
  unanswered: number;
  /** The generator's own CPU, in ms. */
  cpuMs: number;
}

interface Pending {
  n: number;
  dueMs: number;
}

/** One keep-alive connection: writes requests as they are due, reads the answers in order. */
const connection = (port: number, answered: OpenLoopOptions['answered'], failed: (pending: Pending[]) => void) => {
  const pending: Pending[] = [];
  let buf: Buffer = Buffer.alloc(0);
  const socket: Socket = connect({ port, host: '127.0.0.1', noDelay: true });
  let broken = false;
  socket.on('error', () => {});
  socket.on('close', () => {
    broken = true;
    failed(pending.splice(0));
  });
  socket.on('data', (chunk: Buffer) => {
    buf = buf.length === 0 ? chunk : Buffer.concat([buf, chunk]);
    for (;;) {
      const headEnd = buf.indexOf('\r\n\r\n');
      if (headEnd < 0) return;
      const head = buf.toString('latin1', 0, headEnd);
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
      if (buf.length < headEnd + 4 + length) return;
      const body = buf.toString('utf8', headEnd + 4, headEnd + 4 + length);
      buf = buf.subarray(headEnd + 4 + length);
      const p = pending.shift();
      if (p !== undefined) answered(p.n, Number(head.slice(9, 12)), body, performance.now() - p.dueMs);
    }
  });
  return {
    send(n: number, dueMs: number, bytes: Buffer): boolean {
      if (broken) return false;
      pending.push({ n, dueMs });
      socket.write(bytes);
      return true;
    },
    pending: () => pending.length,
    close: () => socket.destroy(),
  };
};

export const runOpenLoop = async (o: OpenLoopOptions): Promise<OpenLoopResult> => {
  const cpuBefore = process.cpuUsage();
  let answered = 0;
  let errors = 0;
  const conns = Array.from({ length: o.connections }, () =>
    connection(
      o.port,
      (n, status, body, ms) => {
        answered++;
        o.answered(n, status, body, ms);
      },
      (lost) => (errors += lost.length),
    ),
  );
  const startMs = performance.now();
  const endMs = startMs + o.durationS * 1_000;
  let sent = 0;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      const due = Math.floor(((Math.min(now, endMs) - startMs) / 1_000) * o.rate);
      while (sent < due) {
        const n = sent++;
        // The moment this request was due on the schedule, even when the timer ran late.
        const dueMs = startMs + (n / o.rate) * 1_000;
        if (!conns[n % conns.length]!.send(n, dueMs, o.request(n))) errors++;
      }
      if (now >= endMs) resolve();
      else setTimeout(tick, 1);
    };
    tick();
  });
  const drainUntil = performance.now() + (o.drainMs ?? 5_000);
  while (answered + errors < sent && performance.now() < drainUntil) await new Promise((r) => setTimeout(r, 20));
  const unanswered = conns.reduce((n, c) => n + c.pending(), 0);
  for (const c of conns) c.close();
  const cpu = process.cpuUsage(cpuBefore);
  return { sent, answered, errors, unanswered, cpuMs: (cpu.user + cpu.system) / 1_000 };
};
