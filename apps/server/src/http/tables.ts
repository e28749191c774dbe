import type { Generated } from 'kysely';

export type HttpTables = {
  http_idempotency: {
    /** sha256 of the caller's identity (token, or the anonymous request) and the rtoken. */
    key_hash: string;
    route: string;
    state: 'pending' | 'done';
    http_status: number | null;
    /** The first answer, sealed with a key only the same caller can derive (tokens stay unreadable). */
    response_sealed: string | null;
    created_at: Generated<Date>;
  };
};
