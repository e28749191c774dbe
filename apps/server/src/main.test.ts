import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The real process: configuration errors, the embedded PostgreSQL, SIGKILL and restart on the
 * same data, and a clean SIGTERM. Always on the embedded database, whatever DATABASE_URL says.
 */
const MAIN = path.resolve(import.meta.dirname, 'main.ts');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-main-'));
const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-web-'));
fs.writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>Bourse test shell</title>');

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

type Running = { child: ChildProcess; output: () => string; port: number };

async function start(env: Record<string, string>): Promise<Running> {
  const port = Number(env.PORT);
  let output = '';
  const child = spawn(process.execPath, [MAIN], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      LOG_LEVEL: 'info',
      EXIT_WHEN_STDIN_CLOSES: 'true',
      SIM_HISTORY_CANDLES: '0',
      ...env,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early: ${output}`);
    const healthy = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (healthy) return { child, output: () => output, port };
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill('SIGKILL');
  throw new Error(`server did not become healthy: ${output}`);
}

function exited(child: ChildProcess): Promise<number | null> {
  return child.exitCode !== null
    ? Promise.resolve(child.exitCode)
    : new Promise((r) => child.once('exit', (code) => r(code)));
}

async function post(port: number, callName: string, fields: Record<string, string>) {
  const response = await fetch(`http://127.0.0.1:${port}/api/web/${callName}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ rtoken: `rt${Math.random().toString(36).slice(2, 12)}`, ...fields }),
  });
  return response.json() as Promise<{ code: number; data: Record<string, string>; reason?: string }>;
}

afterAll(() => {
  fs.rmSync(webDist, { recursive: true, force: true });
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('the server process', () => {
  it('exits with code 78 and names the variable on bad configuration', async () => {
    const child = spawn(process.execPath, [MAIN], {
      env: { PATH: process.env.PATH ?? '', PORT: 'abc' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
    expect(await exited(child)).toBe(78);
    expect(stderr).toContain('PORT must be a whole number');
  });

  it('comes back on the same data after SIGKILL, and stops cleanly on SIGTERM', async () => {
    const env = {
      PORT: String(await freePort()),
      EMBEDDED_PG_PORT: String(await freePort()),
      DATA_DIR: dataDir,
      WEB_DIST: webDist,
      DEMO_CONTENT: 'true',
    };
    const first = await start(env);
    const shell = await fetch(`http://127.0.0.1:${first.port}/market`).then((r) => r.text());
    expect(shell).toContain('Bourse test shell');
    const docs = await fetch(`http://127.0.0.1:${first.port}/api/docs/json`).then(
      (r) => r.json() as Promise<{ paths: object }>,
    );
    expect(Object.keys(docs.paths)).toContain('/api/web/userRegister');

    const codeAnswer = await fetch(
      `http://127.0.0.1:${first.port}/api/web/getCode?account=crash@example.com&scene=register&rtoken=abcdefgh`,
    );
    expect(((await codeAnswer.json()) as { code: number }).code).toBe(1);
    // The outbox line is written by the process's logger, which may flush after the answer.
    let code: string | undefined;
    for (let waited = 0; code === undefined && waited < 10_000; waited += 100) {
      code = first.output().match(/outbox to=crash@example.com code=(\d{6})/)?.[1];
      if (code === undefined) await new Promise((r) => setTimeout(r, 100));
    }
    expect(code).toMatch(/^\d{6}$/);
    const registered = await post(first.port, 'userRegister', {
      type: 'email',
      account: 'crash@example.com',
      code: code ?? '',
      password: 'survive1',
      password2: 'survive1',
      agree: '1',
    });
    expect(registered.code).toBe(1);

    first.child.kill('SIGKILL');
    await exited(first.child);
    const second = await start(env);
    expect(second.output()).toMatch(/stopping the server left running by an earlier run|stale pid file/);
    const login = await post(second.port, 'userLogin', {
      account: 'crash@example.com',
      password: 'survive1',
    });
    expect(login).toMatchObject({ code: 1, data: { uid: registered.data.uid } });
    const demo = await post(second.port, 'userLogin', { account: 'demo@bourse.local', password: 'demo1234' });
    expect(demo.code).toBe(1);

    second.child.kill('SIGTERM');
    expect(await exited(second.child)).toBe(0);
    expect(second.output()).toContain('embedded PostgreSQL stopped');
    expect(fs.existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
  }, 120_000);

  it('stops as on SIGTERM when its standard input closes (EXIT_WHEN_STDIN_CLOSES: its parent died)', async () => {
    const server = await start({
      PORT: String(await freePort()),
      EMBEDDED_PG_PORT: String(await freePort()),
      DATA_DIR: dataDir,
      WEB_DIST: webDist,
      DEMO_CONTENT: 'false',
    });
    // What the parent's death does to the pipe: its write end closes.
    server.child.stdin?.end();
    expect(await exited(server.child)).toBe(0);
    expect(server.output()).toContain('"signal":"stdin closed"');
    expect(server.output()).toContain('embedded PostgreSQL stopped');
    expect(fs.existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
  }, 120_000);
});
