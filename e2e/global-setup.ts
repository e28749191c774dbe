import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    pgUrl: string;
    /** The server's whole output (e2e/logwatch.ts reads it after every test). */
    serverLog: string;
  }
}

const repoRoot = path.resolve(import.meta.dirname, '..');

/** The back office's first administrator in e2e runs (ADMIN_EMAIL / ADMIN_PASSWORD of the server). */
export const E2E_ADMIN = { email: 'admin@e2e.local', password: 'e2e-admin-password-1' } as const;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Stops the server (SIGTERM, SIGKILL after 60 s), then its embedded PostgreSQL if the server could not
 * (killed before its shutdown hook was set, or by SIGKILL): the postmaster's pid is in the data dir.
 */
async function stopServer(child: ChildProcess, dataDir: string): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    const force = setTimeout(() => child.kill('SIGKILL'), 60_000);
    await exited;
    clearTimeout(force);
  }
  const pidFile = path.join(dataDir, 'pg', 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return;
  const pid = Number.parseInt(fs.readFileSync(pidFile, 'utf8').split('\n')[0] ?? '', 10);
  if (!Number.isInteger(pid) || pid <= 0) return;
  try {
    process.kill(pid, 'SIGINT');
  } catch {
    // already gone
  }
}

/** Starts `node apps/server/src/main.ts` on the built web app, an empty data directory and the embedded PostgreSQL. */
export default async function setup(project: TestProject) {
  // WEB_DIST / ADMIN_DIST (also read by the server) let parallel work build to its own folder.
  const webDist = path.resolve(process.env.WEB_DIST ?? path.join(repoRoot, 'apps/web/dist'));
  if (!fs.existsSync(path.join(webDist, 'index.html')))
    throw new Error('apps/web is not built: run `npm run build` first');
  const dataDir = path.join(repoRoot, '.tmp', `e2e-${process.pid}`);
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(path.join(repoRoot, 'e2e/screenshots'), { recursive: true });
  // The whole output goes to a file kept after the run (until the next); the last 20 KB also into start-up errors.
  const serverLog = path.join(repoRoot, '.tmp', `e2e-server-${process.pid}.log`);
  fs.mkdirSync(path.dirname(serverLog), { recursive: true });
  // Earlier runs' logs go, unless their run is still going.
  for (const name of fs.readdirSync(path.dirname(serverLog))) {
    const pid = Number(name.match(/^e2e-server-(\d+)\.log$/)?.[1]);
    if (!pid || pid === process.pid) continue;
    let alive = true;
    try {
      process.kill(pid, 0);
    } catch {
      alive = false;
    }
    if (!alive) fs.rmSync(path.join(path.dirname(serverLog), name), { force: true });
  }
  let logFile = fs.createWriteStream(serverLog);
  let output = '';
  const keep = (chunk: Buffer) => {
    logFile.write(chunk);
    output = (output + chunk.toString()).slice(-20_000);
  };
  /**
   * One start on fresh ports and an empty data directory; null (stopped again) when the server exited
   * or did not answer in time — a loaded CI machine, or a port another process took meanwhile.
   */
  async function startOnce(): Promise<{ child: ChildProcess; port: number; pgPort: number } | null> {
    const port = await freePort();
    const pgPort = await freePort();
    fs.rmSync(dataDir, { recursive: true, force: true });
    const child: ChildProcess = spawn(process.execPath, [path.join(repoRoot, 'apps/server/src/main.ts')], {
      env: {
        ...process.env,
        DATABASE_URL: '',
        PORT: String(port),
        EMBEDDED_PG_PORT: String(pgPort),
        DATA_DIR: dataDir,
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        ACCESS_RATE_LIMIT_PER_IP: '100000',
        ACCESS_RATE_LIMIT_PER_ACCOUNT: '100000',
        LOG_LEVEL: 'info',
        EXIT_WHEN_STDIN_CLOSES: 'true',
        // The launchpad's windows in the e2e run last seconds, not days.
        LAUNCHPAD_JOB_INTERVAL_MS: '1000',
        C2C_JOB_INTERVAL_MS: '1000',
        C2C_WINDOW_MIN_MINUTES: '1',
        // Referral income is paid within a second of the fee (the job's own interval, not a test's sleep).
        REFERRAL_JOB_INTERVAL_MS: '1000',
        ADMIN_EMAIL: E2E_ADMIN.email,
        ADMIN_PASSWORD: E2E_ADMIN.password,
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    // A loaded CI machine can take minutes for a first start (database init, migrations, demo content).
    const deadline = Date.now() + 240_000;
    for (;;) {
      if (child.exitCode !== null) {
        await stopServer(child, dataDir);
        return null;
      }
      if (
        await fetch(`http://127.0.0.1:${port}/healthz`).then(
          (r) => r.ok,
          () => false,
        )
      )
        return { child, port, pgPort };
      if (Date.now() > deadline) {
        // Not left running: an orphaned server and database would slow every later start.
        await stopServer(child, dataDir);
        return null;
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  // Twice at most: a start that failed once is tried again on new ports before the part gives up
  // (a part whose server never starts runs no test, which CI counts as a failure).
  let started = await startOnce();
  if (!started) {
    // The log watch reads the file from its start: the failed start's lines go to the console instead.
    console.error(`e2e server's first start failed, trying again:\n${output.slice(-5_000)}`);
    await new Promise((r) => logFile.end(r));
    logFile = fs.createWriteStream(serverLog);
    started = await startOnce();
  }
  if (!started) throw new Error(`server did not start (two tries): ${output}`);
  const { child, port, pgPort } = started;
  const baseUrl = `http://127.0.0.1:${port}`;
  const password = fs.readFileSync(path.join(dataDir, 'pg-password'), 'utf8').trim();
  project.provide('baseUrl', baseUrl);
  project.provide('serverLog', serverLog);
  project.provide('pgUrl', `postgres://bourse:${encodeURIComponent(password)}@127.0.0.1:${pgPort}/bourse`);

  return async () => {
    await stopServer(child, dataDir);
    await new Promise((r) => logFile.end(r));
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
