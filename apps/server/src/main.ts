import pino from 'pino';
import { buildApp, loggerOptions } from './app.ts';
import { type Config, ConfigError, loadConfig } from './config.ts';
import { startDatabase } from './db/start.ts';
import { systemClock } from './lib/clock.ts';
import { loadSecret } from './lib/secret.ts';

/** Read config, start the database, build the app, listen — and stop in that order's reverse. */
async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`bourse: configuration error: ${error.message}\n`);
    process.exit(78);
  }
  const log = pino(loggerOptions(config));
  const database = await startDatabase({ config, log });
  let app: Awaited<ReturnType<typeof buildApp>>;
  try {
    const secret = loadSecret({ configured: config.secret, dataDir: config.dataDir });
    // The one place the wall clock enters: every decision reads this injected clock.
    app = await buildApp({ config, db: database.db, secret, clock: systemClock, logger: log });
  } catch (error) {
    await database.close();
    throw error;
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down: finishing in-flight requests');
    const started = Date.now();
    let phase = 'closing the app (requests, jobs, books)';
    const force = setTimeout(() => {
      log.error({ phase, timeoutMs: config.shutdownTimeoutMs }, 'shutdown took too long; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs);
    force.unref();
    await app.close();
    const appMs = Date.now() - started;
    phase = 'stopping the database';
    await database.close();
    log.info({ appMs, databaseMs: Date.now() - started - appMs }, 'stopped');
    process.exit(process.exitCode ?? 0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  // Spawned by a test or script with a pipe: its end (the parent exited, or was killed) stops us too,
  // so no server outlives the run that started it.
  if (config.exitWhenStdinCloses) {
    process.stdin.on('end', () => void stop('stdin closed'));
    process.stdin.on('error', () => void stop('stdin closed'));
    process.stdin.resume();
  }

  try {
    await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    await app.close();
    await database.close();
    throw error;
  }
  log.info(`Bourse is running at ${config.publicUrl}`);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `bourse: failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
