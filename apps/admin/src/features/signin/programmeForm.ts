import { isDecimal, sumDecimals } from '@bourse/money';
import type { AdminSigninSettingsData, SigninTexts, SigninVerification } from '@bourse/protocol';
import { SIGNIN_LIMITS } from '@bourse/protocol';

/** The settings form's state and its checks (the server checks again and names what it refuses). */
export type ProgrammeForm = {
  enabled: boolean;
  timeZone: string;
  amounts: string[];
  verification: SigninVerification;
  condition: SigninTexts;
};

export function formOf(s: AdminSigninSettingsData): ProgrammeForm {
  return {
    enabled: s.enabled,
    timeZone: s.time_zone,
    amounts: [...s.amounts],
    verification: s.verification,
    condition: { ...s.condition },
  };
}

/** The first problem of the form, as the field the server would name; null when it may be sent. */
export function formProblem(f: ProgrammeForm): string | null {
  if (f.timeZone.trim() === '') return 'time_zone';
  for (const [i, a] of f.amounts.entries()) {
    const text = a.trim();
    if (!isDecimal(text) || !/[1-9]/.test(text) || text.startsWith('-')) return `amounts[${i}]`;
  }
  const filled = [f.condition.en, f.condition.zh, f.condition.ft].filter((t) => t.trim() !== '').length;
  if (filled !== 0 && filled !== 3) return 'condition';
  if ([f.condition.en, f.condition.zh, f.condition.ft].some((t) => t.length > SIGNIN_LIMITS.conditionMax))
    return 'condition';
  return null;
}

/** What a customer gets for a full week. */
export function weekTotal(amounts: readonly string[]): string {
  return sumDecimals(amounts.map((a) => (isDecimal(a.trim()) ? a.trim() : '0')));
}
