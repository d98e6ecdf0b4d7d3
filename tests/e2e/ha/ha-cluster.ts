/**
 * The high-availability cluster of docs/deploy.md "High availability", for real, on 127.0.0.1:
 * one etcd, three Patroni members running PostgreSQL 15 as the postgres user, and HAProxy with a
 * write port (the leader, by Patroni's /primary check), a read port (the replicas, /replica), an
 * API port (MONEY processes, /readyz) and its stats page. Every configuration is rendered from
 * ops/ha/'s templates, so the tests run exactly what an operator deploys. Spare ports of their own
 * (apart from tests/e2e/private-postgres.ts's, replica-pair.ts's and the scale bench's), a
 * temporary folder, and `destroy()` ends every process it started even when a test failed.
 * bench/failover.bench.ts builds on it too.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, openSync, readFileSync, writeFileSync, closeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { clusterDir, freePorts, missingPgBinaries } from '../pg-cluster.ts';

const root = resolve(import.meta.dirname, '../../..');
const binDir = process.env.PG_BIN_DIR ?? '/usr/lib/postgresql/15/bin';
const bins = {
  patroni: process.env.PATRONI_PATH ?? '/usr/bin/patroni',
  patronictl: process.env.PATRONICTL_PATH ?? '/usr/bin/patronictl',
  etcd: process.env.ETCD_PATH ?? '/usr/bin/etcd',
  haproxy: process.env.HAPROXY_PATH ?? '/usr/sbin/haproxy',
};

/** What the cluster needs that is not installed (empty when it can run; .ci/ensure-ha.mjs installs it). */
export const missingHaBinaries = (): string[] => [
  ...missingPgBinaries(['initdb', 'pg_ctl', 'pg_basebackup', 'pg_rewind', 'postgres']),
  ...Object.values(bins).filter((p) => !existsSync(p)),
  ...(process.getuid?.() === 0 && spawnSync('id', ['-u', 'postgres']).status !== 0 ? ['the postgres user'] : []),
];

// 16 ports a run: etcd ×2, three members ×2, HAProxy ×4, two API processes, and spares. The tests
// take 55470–55509, bench:failover 55520–55559, so a test and the bench never pick the same port.
const spareports = (base: number) => Array.from({ length: 40 }, (_, i) => base + i);

export const superuserPassword = 'money-ha-test-superuser';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `template` with every ${NAME} replaced from `values`; a name without a value is an error. */
export const renderTemplate = (template: string, values: Record<string, string | number>): string =>
  template.replace(/\$\{([A-Z0-9_]+)\}/g, (_, name: string) => {
    const v = values[name];
    if (v === undefined) throw new Error(`no value for \${${name}}`);
    return String(v);
  });

const template = (file: string) => readFileSync(join(root, 'ops/ha', file), 'utf8');

export type Role = 'leader' | 'sync_standby' | 'replica' | 'standby_leader';

export interface MemberState {
  name: string;
  role: Role;
  state: string;
  lag?: number | string;
}

export interface Member {
  name: string;
  pgPort: number;
  restPort: number;
  dataDir: string;
  /** A superuser URL straight to this member's PostgreSQL (not through HAProxy). */
  url: string;
  running(): boolean;
}

export interface HaCluster {
  dir: string;
  members: Member[];
  /** DATABASE_URL: HAProxy's write port, always the leader. */
  writeUrl: string;
  /** DATABASE_REPLICA_URL: HAProxy's read port, the replicas. */
  readUrl: string;
  /** HAProxy's API port and the ports its two API servers are expected on. */
  apiBase: string;
  apiPorts: [number, number];
  /** Patroni's view of the cluster, from the first member that answers. */
  members_(): Promise<MemberState[]>;
  /** The leader's name, once a running leader is seen (bounded by `timeoutMs`). */
  waitForLeader(timeoutMs?: number, not?: string): Promise<string>;
  /** Waits until `n` members stream from the leader and one of them is the synchronous standby. */
  waitForReplicas(n: number, timeoutMs?: number): Promise<void>;
  /** Losing the machine: kill -9 of the member's Patroni and of every one of its PostgreSQL processes. */
  killMachine(name: string): void;
  /** Starts the member's Patroni again (it starts its PostgreSQL, rewinding it when needed). */
  startMember(name: string): void;
  /** `patronictl switchover --force` to `candidate` (any synchronous standby when not given). */
  switchover(candidate?: string): Promise<void>;
  /** HAProxy's status of a server ('UP', 'DOWN', 'MAINT', …) from its stats CSV. */
  haproxyStatus(backend: string, server: string): Promise<string>;
  /** The end of every log, for a failure's message. */
  logs(): string;
  /** Ends every process this cluster started and removes its folder. */
  destroy(): Promise<void>;
}

const postgresIds = (): { uid: number; gid: number } | undefined => {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
  return { uid: id('-u'), gid: id('-g') };
};

const getJson = async <T>(url: string, timeoutMs = 1_000): Promise<T> => {
  const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  return (await res.json()) as T;
};

/** The pids of `pid` and all its descendants. */
const processTree = (pid: number): number[] => {
  const out = spawnSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' }).stdout;
  const children = out.split('\n').filter(Boolean).map(Number);
  return [pid, ...children.flatMap(processTree)];
};

const kill9 = (pids: number[]) => {
  for (const p of pids) {
    try {
      process.kill(p, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
};

/** Runs one SQL statement on `url` on a connection of its own. */
export const sqlOn = async <T extends pg.QueryResultRow>(url: string, text: string, params: unknown[] = []): Promise<T[]> => {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  await c.connect();
  try {
    return (await c.query<T>(text, params)).rows;
  } finally {
    await c.end();
  }
};

/**
 * Starts etcd, three Patroni members (the first bootstraps, the others are base-backed up from it)
 * and HAProxy; resolves once a leader and two streaming replicas, one synchronous, are seen.
 * `apiServers` names the API ports HAProxy sends players to (the caller starts MONEY on them).
 */
export const startHaCluster = async (opts: { log?: (m: string) => void; portBase?: number } = {}): Promise<HaCluster> => {
  const log = opts.log ?? (() => {});
  const p = await freePorts(spareports(opts.portBase ?? 55470), 16);
  const [etcdClient, etcdPeer, write, read, api, stats, api1, api2] = p as [number, number, number, number, number, number, number, number];
  const dir = clusterDir('money-ha-');
  const ids = postgresIds();
  const procs = new Map<string, ChildProcess>();
  const host = '127.0.0.1';

  const spawnLogged = (name: string, cmd: string, args: string[], asPostgres: boolean): ChildProcess => {
    const fd = openSync(join(dir, `${name}.log`), 'a');
    const child = spawn(cmd, args, {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8' },
      stdio: ['ignore', fd, fd],
      ...(asPostgres && ids !== undefined ? ids : {}),
    });
    closeSync(fd);
    procs.set(name, child);
    return child;
  };

  const members: Member[] = [1, 2, 3].map((i) => {
    const name = `pg${i}`;
    const pgPort = p[8 + 2 * (i - 1)]!;
    const restPort = p[9 + 2 * (i - 1)]!;
    const dataDir = join(dir, name, 'data');
    return {
      name,
      pgPort,
      restPort,
      dataDir,
      url: `postgres://postgres:${superuserPassword}@${host}:${pgPort}/postgres`,
      running: () => {
        const c = procs.get(name);
        return c !== undefined && c.exitCode === null && c.signalCode === null;
      },
    };
  });

  const memberConfig = (m: Member): string => {
    const memberDir = join(dir, m.name);
    spawnSync('mkdir', ['-p', memberDir]);
    if (ids !== undefined) spawnSync('chown', [`${ids.uid}:${ids.gid}`, memberDir]);
    chmodSync(memberDir, 0o700);
    const file = join(memberDir, 'patroni.yml');
    // As every private cluster of the tests (pg-cluster.ts): no fsync, which only matters when the
    // operating system crashes, not when processes are killed; the template itself is unchanged.
    const forTests = (yml: string) =>
      yml
        .replace(/^ {2}initdb:\n/m, (m) => `${m}    - no-sync\n`)
        .replace(/^ {2}parameters:\n/m, (m) => `${m}    fsync: "off"\n`);
    writeFileSync(
      file,
      forTests(renderTemplate(template('patroni.yml'), {
        MEMBER_NAME: m.name,
        MEMBER_HOST: host,
        RESTAPI_PORT: m.restPort,
        PG_PORT: m.pgPort,
        ETCD_HOSTS: `${host}:${etcdClient}`,
        PG_DATA_DIR: m.dataDir,
        PG_BIN_DIR: binDir,
        PG_SOCKET_DIR: memberDir,
        PGPASS_FILE: join(memberDir, 'pgpass'),
        PG_SUPERUSER_PASSWORD: superuserPassword,
        REPLICATION_USER: 'replicator',
        REPLICATION_PASSWORD: 'money-ha-test-replication',
        CLUSTER_NETWORK: '127.0.0.1/32',
      })),
    );
    return file;
  };
  const memberConfigs = new Map(members.map((m) => [m.name, memberConfig(m)]));

  const member = (name: string): Member => {
    const m = members.find((x) => x.name === name);
    if (m === undefined) throw new Error(`no member ${name}`);
    return m;
  };
  const startMember = (name: string) => {
    spawnLogged(name, bins.patroni, [memberConfigs.get(name)!], true);
  };

  const clusterState = async (): Promise<MemberState[]> => {
    for (const m of members) {
      if (!m.running()) continue;
      try {
        return (await getJson<{ members: MemberState[] }>(`http://${host}:${m.restPort}/cluster`)).members;
      } catch {
        /* the next member */
      }
    }
    return [];
  };

  const postmasterPids = (m: Member): number[] => {
    try {
      const pid = Number(readFileSync(join(m.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
      return Number.isInteger(pid) && pid > 0 ? processTree(pid) : [];
    } catch {
      return [];
    }
  };

  const destroy = async () => {
    // HAProxy and the API side first, then Patroni with its PostgreSQL, then etcd.
    for (const name of ['haproxy', ...members.map((m) => m.name)]) {
      const c = procs.get(name);
      if (c !== undefined && c.pid !== undefined && c.exitCode === null) kill9([c.pid]);
    }
    for (const m of members) kill9(postmasterPids(m));
    const etcd = procs.get('etcd');
    if (etcd?.pid !== undefined && etcd.exitCode === null) kill9([etcd.pid]);
    // The processes are gone once their folder's postmaster.pid names no live process.
    for (let i = 0; i < 50 && members.some((m) => postmasterPids(m).some((pid) => spawnSync('kill', ['-0', String(pid)]).status === 0)); i++) await sleep(100);
    spawnSync('rm', ['-rf', dir]);
  };

  const cluster: HaCluster = {
    dir,
    members,
    writeUrl: `postgres://postgres:${superuserPassword}@${host}:${write}/postgres`,
    readUrl: `postgres://postgres:${superuserPassword}@${host}:${read}/postgres`,
    apiBase: `http://${host}:${api}`,
    apiPorts: [api1, api2],
    members_: clusterState,
    waitForLeader: async (timeoutMs = 60_000, not) => {
      const until = Date.now() + timeoutMs;
      while (Date.now() < until) {
        const leader = (await clusterState()).find((s) => s.role === 'leader' && s.state === 'running' && s.name !== not);
        if (leader !== undefined) return leader.name;
        await sleep(200);
      }
      throw new Error(`no leader within ${timeoutMs} ms: ${JSON.stringify(await clusterState())}\n${cluster.logs()}`);
    },
    waitForReplicas: async (n, timeoutMs = 180_000) => {
      const until = Date.now() + timeoutMs;
      let last: MemberState[] = [];
      while (Date.now() < until) {
        last = await clusterState();
        const streaming = last.filter((s) => (s.role === 'replica' || s.role === 'sync_standby') && (s.state === 'streaming' || s.state === 'running'));
        if (streaming.length >= n && streaming.some((s) => s.role === 'sync_standby')) {
          // Patroni calls a replica running before it streams: ask each one's PostgreSQL.
          const ok = await Promise.all(
            streaming.map((s) => sqlOn<{ n: number }>(member(s.name).url, "SELECT count(*)::int AS n FROM pg_stat_wal_receiver WHERE status = 'streaming'").then((r) => r[0]!.n === 1, () => false)),
          );
          if (ok.every(Boolean)) return;
        }
        await sleep(300);
      }
      throw new Error(`not ${n} streaming replicas within ${timeoutMs} ms: ${JSON.stringify(last)}`);
    },
    killMachine: (name) => {
      const m = member(name);
      const patroni = procs.get(name);
      kill9([...(patroni?.pid !== undefined && patroni.exitCode === null ? [patroni.pid] : []), ...postmasterPids(m)]);
    },
    startMember,
    switchover: async (candidate) => {
      // Not spawnSync: the click load shares this event loop and must keep going meanwhile.
      const args = ['-c', memberConfigs.get(members.find((m) => m.running())!.name)!, 'switchover', 'money', '--force', ...(candidate !== undefined ? ['--candidate', candidate] : [])];
      const child = spawn(bins.patronictl, args, { env: { ...process.env, HOME: dir }, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (out += d.toString()));
      const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
      const code = await new Promise<number | null>((res) => child.once('exit', res));
      clearTimeout(timer);
      if (code !== 0) throw new Error(`patronictl switchover failed (${code}): ${out}`);
      log(out.split('\n').filter((l) => /Successfully|switched/i.test(l)).join(' ').trim());
    },
    haproxyStatus: async (backend, server) => {
      const csv = await (await fetch(`http://${host}:${stats}/;csv`, { signal: AbortSignal.timeout(2_000) })).text();
      const row = csv.split('\n').find((l) => l.startsWith(`${backend},${server},`));
      // Column 18 (0-based 17) is `status`.
      return row?.split(',')[17] ?? 'missing';
    },
    destroy,
    logs: () =>
      ['etcd', ...members.map((m) => m.name), 'haproxy']
        .map((n) => {
          try {
            return `--- ${n}.log (end)\n${readFileSync(join(dir, `${n}.log`), 'utf8').split('\n').filter((l) => n !== 'haproxy' || !/ 200 \d/.test(l)).slice(-40).join('\n')}`;
          } catch {
            return '';
          }
        })
        .join('\n'),
  };

  try {
    const etcdFile = join(dir, 'etcd.yml');
    writeFileSync(
      etcdFile,
      renderTemplate(template('etcd.yml'), {
        ETCD_NAME: 'e1',
        ETCD_DATA_DIR: join(dir, 'etcd'),
        ETCD_HOST: host,
        ETCD_CLIENT_PORT: etcdClient,
        ETCD_PEER_PORT: etcdPeer,
        ETCD_INITIAL_CLUSTER: `e1=http://${host}:${etcdPeer}`,
      }),
    );
    spawnLogged('etcd', bins.etcd, ['--config-file', etcdFile], false);
    for (let i = 0; ; i++) {
      const ok = await getJson<{ health: string }>(`http://${host}:${etcdClient}/health`).then((h) => h.health === 'true', () => false);
      if (ok) break;
      if (i > 300) throw new Error('etcd did not become healthy');
      await sleep(100);
    }
    log('etcd is up');

    const haproxyFile = join(dir, 'haproxy.cfg');
    const values: Record<string, string | number> = { HAPROXY_HOST: host, WRITE_PORT: write, READ_PORT: read, API_PORT: api, STATS_PORT: stats, API1_NAME: 'money1', API1_HOST: host, API1_PORT: api1, API2_NAME: 'money2', API2_HOST: host, API2_PORT: api2 };
    members.forEach((m, i) => Object.assign(values, { [`MEMBER${i + 1}_NAME`]: m.name, [`MEMBER${i + 1}_HOST`]: host, [`MEMBER${i + 1}_PG_PORT`]: m.pgPort, [`MEMBER${i + 1}_RESTAPI_PORT`]: m.restPort }));
    // The template names no log host; here HAProxy logs every API request to its output (haproxy.log),
    // so a failure's message shows how HAProxy ended the requests that went wrong.
    const logged = renderTemplate(template('haproxy.cfg'), values)
      .replace(/^(global\n)/m, '$1    log stdout format raw local0\n')
      .replace(/^(listen money_api\n)/m, '$1    log global\n    option httplog\n');
    writeFileSync(haproxyFile, logged);
    const check = spawnSync(bins.haproxy, ['-c', '-q', '-f', haproxyFile], { encoding: 'utf8' });
    if (check.status !== 0) throw new Error(`haproxy -c: ${check.stdout}${check.stderr}`);
    spawnLogged('haproxy', bins.haproxy, ['-db', '-f', haproxyFile], false);

    // The first member bootstraps alone; the others then clone it, so none races to initdb.
    startMember('pg1');
    await cluster.waitForLeader(240_000);
    log('the first member leads');
    startMember('pg2');
    startMember('pg3');
    await cluster.waitForReplicas(2);
    log('two replicas stream, one synchronously');
    return cluster;
  } catch (err) {
    const logs = cluster.logs();
    await destroy();
    throw new Error(`${err instanceof Error ? err.message : String(err)}\n${logs}`);
  }
};
