/**
 * Traces on demand (docs/operations.md "Traces"): the real server started as `npm start` starts it
 * (the preload after tsx), with OTEL_EXPORTER_OTLP_ENDPOINT pointing at a small OTLP/HTTP JSON
 * receiver on 127.0.0.1 in this test. One click's trace is the request's span, the click group
 * write under it and the group's commit under that; on PostgreSQL the commit's SQL statement is a
 * span under the commit; Redis commands are spans too.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advanceClock, apiAs, dbKinds, freshDatabase, removeDir, serverNow, startServer, tempDataDir, testUser, type RunningServer } from './harness.ts';

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
}
interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes?: { key: string; value: OtlpValue }[];
  links?: { traceId: string; spanId: string }[];
}
interface ExportRequest {
  resourceSpans?: { resource?: { attributes?: { key: string; value: OtlpValue }[] }; scopeSpans?: { spans?: ReceivedSpan[] }[] }[];
}

/** An OTLP/HTTP collector that keeps every span posted to /v1/traces (JSON encoding). */
const startReceiver = async () => {
  const spans: ReceivedSpan[] = [];
  const services = new Set<string>();
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      if (req.url === '/v1/traces' && req.headers['content-type']?.includes('json')) {
        const request = JSON.parse(body) as ExportRequest;
        for (const rs of request.resourceSpans ?? []) {
          for (const a of rs.resource?.attributes ?? []) if (a.key === 'service.name' && a.value.stringValue) services.add(a.value.stringValue);
          for (const ss of rs.scopeSpans ?? []) spans.push(...(ss.spans ?? []));
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, spans, services, close: () => new Promise<void>((r) => server.close(() => r())) };
};

/** The database a client span talks to, under either semantic-conventions name. */
const dbSystem = (span: ReceivedSpan): string | undefined => attr(span, 'db.system.name') ?? attr(span, 'db.system');

function attr(span: ReceivedSpan, key: string): string | undefined {
  const v = span.attributes?.find((a) => a.key === key)?.value;
  return v === undefined ? undefined : String(v.stringValue ?? v.intValue ?? v.boolValue);
}

describe.each(dbKinds)('traces of one click (%s)', (kind) => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let server: RunningServer;
  let drop: () => Promise<void> = async () => {};
  const dataDir = tempDataDir();
  beforeAll(async () => {
    receiver = await startReceiver();
    const db = await freshDatabase(kind);
    drop = db.drop;
    server = await startServer({
      dataDir,
      databaseUrl: db.url,
      nodeArgs: ['--import', './server/tracing-preload.ts'],
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        // The batch processor's wait before it sends (the SDK reads it): short, so the test waits less.
        OTEL_BSP_SCHEDULE_DELAY: '100',
        REDIS_URL: 'redis://127.0.0.1:6379',
        REDIS_PREFIX: `money-traces-${process.pid}-${kind}:`,
      },
    });
  }, 120_000);
  afterAll(async () => {
    await server?.stop('SIGKILL');
    await receiver?.close();
    await drop();
    removeDir(dataDir);
  });

  it('is the request, the click group write under it, and the commit under that, with the SQL and Redis calls as spans', async () => {
    const user = testUser(kind === 'postgres' ? 851 : 850);
    await apiAs(server, user, await serverNow(server)).status();
    await advanceClock(server, 10_000);
    const api = apiAs(server, user, await serverNow(server));
    const batchId = `traced-${kind}`;
    const r = await api.call<{ accepted: number }>('POST', '/click', { click: 2, batchId, seq: 1 });
    expect(r.status).toBe(200);
    expect(r.body.accepted).toBe(2);
    await api.call('GET', '/leaderboard?page=1&pageSize=10');

    const byId = () => new Map(receiver.spans.map((s) => [s.spanId, s]));
    const commitOfClick = () => receiver.spans.find((s) => s.name === 'click group commit');
    // The spans leave in batches: wait for the commit's, then for its whole chain up to the request.
    while (commitOfClick() === undefined) await new Promise((res) => setTimeout(res, 50));
    const chain = (span: ReceivedSpan): ReceivedSpan[] => {
      const spans = byId();
      const up: ReceivedSpan[] = [span];
      for (let p = span.parentSpanId; p; p = spans.get(p)?.parentSpanId) {
        const parent = spans.get(p);
        if (parent === undefined) return [];
        up.push(parent);
      }
      return up;
    };
    while (chain(commitOfClick()!).length === 0) await new Promise((res) => setTimeout(res, 50));

    const commit = commitOfClick()!;
    const [, write, ...above] = chain(commit);
    expect(write!.name).toBe('click group write');
    expect(attr(write!, 'money.click.batches')).toBe('1');
    // The root of the trace is the request: POST on the click route.
    const root = above.at(-1)!;
    expect(root.parentSpanId ?? '').toBe('');
    expect(attr(root, 'http.route') ?? root.name).toMatch(/\/click$/);
    expect([attr(root, 'http.request.method'), attr(root, 'http.method'), root.name].some((m) => m?.includes('POST'))).toBe(true);
    expect(new Set([commit, write!, ...above].map((s) => s.traceId)).size).toBe(1);
    // The group links every request it writes; here, the one.
    expect(write!.links?.map((l) => l.traceId)).toEqual([root.traceId]);

    if (kind === 'postgres') {
      const sql = () => receiver.spans.filter((s) => s.parentSpanId === commit.spanId && dbSystem(s) === 'postgresql');
      while (sql().length === 0) await new Promise((res) => setTimeout(res, 50));
      expect(sql()[0]!.traceId).toBe(commit.traceId);
    }
    // Redis commands (the live ranks) are traced as well.
    while (!receiver.spans.some((s) => dbSystem(s) === 'redis')) await new Promise((res) => setTimeout(res, 50));
    expect(receiver.services.has('money')).toBe(true);
  });

  it('stops with the traces step and exits 0', async () => {
    const code = await server.stop('SIGTERM');
    expect(code, server.output()).toBe(0);
    expect(server.output()).toMatch(/Stopped \(balancers \d+ ms, background \d+ ms, requests \d+ ms, database \d+ ms, redis \d+ ms, traces \d+ ms\)/);
  });
});
