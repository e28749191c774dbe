import { generateSecret, generateURI, verify } from 'otplib';

/** RFC 6238 TOTP, 6 digits, 30 s steps; one step of drift either way is accepted. */
export const TOTP_PERIOD_SECONDS = 30;
const TOLERANCE_SECONDS = 30;
export const TOTP_ISSUER = 'Bourse back office';

export function newTotpSecret(): string {
  return generateSecret();
}

export function totpUri(email: string, secret: string): string {
  return generateURI({ issuer: TOTP_ISSUER, label: email, secret });
}

/**
 * The time step the code belongs to, or null when it is wrong. A code of a step at or before
 * `afterStep` (the last one used) is refused: each code works once.
 */
export async function checkTotp(input: {
  secret: string;
  code: string;
  now: Date;
  afterStep: number | null;
}): Promise<number | null> {
  if (!/^[0-9]{6}$/.test(input.code)) return null;
  const result = await verify({
    secret: input.secret,
    token: input.code,
    epoch: Math.floor(input.now.getTime() / 1000),
    epochTolerance: TOLERANCE_SECONDS,
    ...(input.afterStep !== null ? { afterTimeStep: input.afterStep } : {}),
  });
  if (!result.valid) return null;
  const step = (result as { timeStep?: number }).timeStep;
  return typeof step === 'number' ? step : null;
}
