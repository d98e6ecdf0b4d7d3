/**
 * A TCP proxy on 127.0.0.1 in front of PostgreSQL that loses the answer to a write after the
 * database has it (docs/faults.md "An answer lost after the commit"): it forwards everything until
 * a connection sends a message holding `trigger` (a prepared statement's name, or COMMIT), then
 * withholds everything PostgreSQL answers on that connection — for good (`hold`: the client's read
 * timeout fires) or by closing the client's socket once the answer came (`reset`). The statement
 * itself reaches PostgreSQL whole, so it commits.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';

export interface LostCommitProxy {
  /** The proxy's connection URL for `databaseUrl`'s database. */
  url: string;
  /** Loses the answer of the next `times` statements holding `trigger`. */
  arm(trigger: string, times: number, mode: 'hold' | 'reset'): void;
  /** Answers lost so far since the last arm. */
  readonly lost: number;
  close(): Promise<void>;
}

export const startLostCommitProxy = async (databaseUrl: string): Promise<LostCommitProxy> => {
  const upstream = new URL(databaseUrl);
  let armed: { trigger: Buffer; times: number; mode: 'hold' | 'reset' } | undefined;
  let lost = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const db = connect(Number(upstream.port || 5432), upstream.hostname);
    sockets.add(client).add(db);
    let withheld: 'hold' | 'reset' | undefined;
    client.on('data', (chunk: Buffer) => {
      if (withheld === undefined && armed !== undefined && armed.times > 0 && chunk.includes(armed.trigger)) {
        withheld = armed.mode;
        armed.times -= 1;
        lost += 1;
      }
      db.write(chunk);
    });
    db.on('data', (chunk: Buffer) => {
      if (withheld === undefined) client.write(chunk);
      // PostgreSQL answered: the statement ran to its end; the client never hears it.
      else if (withheld === 'reset') client.destroy();
    });
    const end = () => {
      client.destroy();
      db.destroy();
      sockets.delete(client);
      sockets.delete(db);
    };
    client.on('close', end).on('error', end);
    db.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return {
    url: url.toString(),
    arm: (trigger, times, mode) => {
      armed = { trigger: Buffer.from(trigger), times, mode };
      lost = 0;
    },
    get lost() {
      return lost;
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};
