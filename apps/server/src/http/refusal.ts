import { REASONS, type ReasonCode, type ReasonParams } from '@bourse/protocol';

/**
 * An expected failure: a reason from the registry and its parameters. Services throw it;
 * the error handler turns it into the envelope in the request's language. Nothing else
 * produces refusal text.
 */
export class Refusal extends Error {
  override name = 'Refusal';
  readonly reason: ReasonCode;
  readonly params: ReasonParams;

  constructor(reason: ReasonCode, params: ReasonParams = {}) {
    super(reason);
    this.reason = reason;
    this.params = params;
    const expected: readonly string[] = REASONS[reason].params;
    for (const name of expected) {
      if (!Object.hasOwn(params, name)) throw new Error(`Refusal ${reason} is missing parameter ${name}`);
    }
  }
}

/**
 * For a catch that expects certain refusals: returns the error when it is a refusal with one of
 * `reasons`, else rethrows it — so a bug is never swallowed as "not found" or "no price".
 */
export function expectRefusal(error: unknown, ...reasons: readonly ReasonCode[]): Refusal {
  if (error instanceof Refusal && reasons.includes(error.reason)) return error;
  throw error;
}

export function refuse(reason: ReasonCode, params: ReasonParams = {}): never {
  throw new Refusal(reason, params);
}
