import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** SECRET from the environment, else one generated once into the data directory and kept. */
export function loadSecret(input: { configured: string | null; dataDir: string }): string {
  if (input.configured) return input.configured;
  const file = path.join(input.dataDir, 'secret');
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  fs.mkdirSync(input.dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  fs.writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
  return secret;
}
