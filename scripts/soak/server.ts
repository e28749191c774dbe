import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/**
 * The real server as `npm start` runs it (`node apps/server/src/main.ts`, its defaults), on a
 * temporary DATA_DIR with the embedded PostgreSQL on free ports; its output goes to a log file.
 * The only settings changed from the defaults: ports, data dir, the first administrator (so the
 * scripts can log in to the back office) and the access rate limits (the scripted customers all
 * come from 127.0.0.1).
 */
export const repoRoot = path.resolve(import.meta.dirname, '../..');
export const ADMIN = { email: 'admin@soak.local', password: 'soak-admin-password-1' } as const;

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export type ServerOptions = { dataDir: string; logFile: string; port: number; pgPort: number };

export class Server {
  readonly options: ServerOptions;
  child: ChildProcess | null = null;
  starts = 0;

  constructor(options: ServerOptions) {
    this.options = options;
  }

  static async create(label: string): Promise<Server> {
    const dataDir = path.join(repoRoot, '.tmp', `soak-${label}-${process.pid}`);
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.mkdirSync(dataDir, { recursive: true });
    return new Server({
      dataDir,
      logFile: path.join(repoRoot, '.tmp', `soak-${label}-${process.pid}.log`),
      port: await freePort(),
      pgPort: await freePort(),
    });
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.options.port}`;
  }

  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  /** The embedded PostgreSQL's URL (its password is generated into the data dir at first start). */
  pgUrl(): string {
    const password = fs.readFileSync(path.join(this.options.dataDir, 'pg-password'), 'utf8').trim();
    return `postgres://bourse:${encodeURIComponent(password)}@127.0.0.1:${this.options.pgPort}/bourse`;
  }

  /** Starts the server and waits for `/healthz`; appends its output to the log file. */
  async start(timeoutMs = 120_000): Promise<void> {
    const { dataDir, logFile, port, pgPort } = this.options;
    const log = fs.openSync(logFile, 'a');
    this.starts += 1;
    // npm start defaults for everything else: FEED=sim, DEMO_CONTENT=true, MARKET_MAKER=auto (→ on), LOG_LEVEL=info.
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const name of [
      'DATABASE_URL',
      'FEED',
      'DEMO_CONTENT',
      'MARKET_MAKER',
      'LOG_LEVEL',
      'REDIS_URL',
      'SECRET',
    ])
      delete env[name];
    const child = spawn(process.execPath, [path.join(repoRoot, 'apps/server/src/main.ts')], {
      cwd: repoRoot,
      env: {
        ...env,
        PORT: String(port),
        HOST: '127.0.0.1',
        EMBEDDED_PG_PORT: String(pgPort),
        DATA_DIR: dataDir,
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        ACCESS_RATE_LIMIT_PER_IP: '100000',
        ACCESS_RATE_LIMIT_PER_ACCOUNT: '100000',
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
        EXIT_WHEN_STDIN_CLOSES: 'true',
      },
      stdio: ['pipe', log, log],
    });
    fs.closeSync(log);
    this.child = child;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(`server exited during start (code ${child.exitCode}); see ${logFile}`);
      }
      const ok = await fetch(`${this.baseUrl}/healthz`, { signal: AbortSignal.timeout(2_000) }).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return;
      if (Date.now() > deadline)
        throw new Error(`server did not answer /healthz in ${timeoutMs} ms; see ${logFile}`);
      await sleep(250);
    }
  }

  /** `kill -9`: no shutdown hook runs; the embedded PostgreSQL is left behind and taken over at the next start. */
  async kill9(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
  }

  /** A clean stop (SIGTERM, as Ctrl-C); SIGKILL after 60 s; then the embedded PostgreSQL if one was left. */
  async stop(): Promise<void> {
    const child = this.child;
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
      await exited;
      clearTimeout(timer);
    }
    this.stopOrphanPostgres();
  }

  /** The PostgreSQL our server started (postmaster.pid in our own data dir), if it is still up. */
  stopOrphanPostgres(): void {
    const pidFile = path.join(this.options.dataDir, 'pg', 'postmaster.pid');
    if (!fs.existsSync(pidFile)) return;
    const pid = Number.parseInt(fs.readFileSync(pidFile, 'utf8').split('\n')[0] ?? '', 10);
    if (!Number.isInteger(pid) || pid <= 0) return;
    try {
      process.kill(pid, 'SIGINT');
    } catch {
      // already gone
    }
  }

  /** Removes the data dir (kept with --keep). */
  cleanup(): void {
    fs.rmSync(this.options.dataDir, { recursive: true, force: true });
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Lines of the server's log at pino level ≥ `minLevel` (50 = error, 60 = fatal), parsed. */
export function logLinesAtLeast(
  logFile: string,
  minLevel: number,
): { level: number; msg: string; raw: string }[] {
  const out: { level: number; msg: string; raw: string }[] = [];
  for (const raw of fs.readFileSync(logFile, 'utf8').split('\n')) {
    if (!raw.startsWith('{')) continue;
    try {
      const line = JSON.parse(raw) as { level?: number; msg?: string };
      if (typeof line.level === 'number' && line.level >= minLevel) {
        out.push({ level: line.level, msg: line.msg ?? '', raw });
      }
    } catch {
      // not a pino line
    }
  }
  return out;
}
