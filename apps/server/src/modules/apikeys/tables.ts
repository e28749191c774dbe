/** The apikeys module's tables (only this module reads or writes them: scripts/check-tables.ts). */
export type ApikeysTables = {
  apikeys_key: {
    id: string;
    customer_id: string;
    /** The public key (`X-MBX-APIKEY`): 64 hex characters, unique. */
    api_key: string;
    label: string;
    /** `read` or `trade` (trade includes read); no key can ever withdraw. */
    permission: string;
    /** The allow-list, normalised, comma-separated; '' = any address. */
    ips: string;
    /** The HMAC secret sealed with AES-256-GCM (DOCUMENT_KEY), bound to the key id; never stored in clear. */
    secret_sealed: string;
    created_at: Date;
    expires_at: Date;
    last_used_at: Date | null;
    revoked_at: Date | null;
    /** `customer` or `staff`. */
    revoked_by: string | null;
    /** The staff member who revoked it (the audit log has the record). */
    revoked_staff_id: string | null;
    revoke_reason: string | null;
  };
};
