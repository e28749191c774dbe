import type { Generated } from 'kysely';

export type HttpTables = {
  http_idempotency: {
    /** HMAC of the route, the principal (customer, staff member, or the anonymous request) and the rtoken. */
    key_hash: string;
    route: string;
    /** `applied`: the effect committed (in its own transaction); `done`: the answer is stored too. */
    state: 'applied' | 'done';
    /** The claimant that wrote it (one per request run). */
    claim_id: string | null;
    /** sha256 of the request's content: the same rtoken with other content is refused. */
    request_hash: string | null;
    http_status: number | null;
    /** The first answer, sealed with a key only the same caller can derive (tokens stay unreadable). */
    response_sealed: string | null;
    created_at: Generated<Date>;
  };
};
