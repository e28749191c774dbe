import { randomBytes } from 'node:crypto';
import { translate } from '@bourse/i18n';
import type { Lang, WalletNonceData } from '@bourse/protocol';
import { getAddress, isAddress, verifyMessage } from 'viem';
import { parseSiweMessage } from 'viem/siwe';
import type { Db } from '../../db/database.ts';
import { refuse } from '../../http/refusal.ts';
import type { Clock } from '../../lib/clock.ts';
import * as repo from './repo.ts';
import type { Accounts, RequestMeta } from './service.ts';

/**
 * Sign-In with Ethereum (EIP-4361). The server hands out a one-time nonce; the wallet signs the
 * message; the server checks the message's fields against the site the customer is on and the
 * signature against the address. The platform never sees a seed phrase or a private key.
 */
const NONCE_TTL_MS = 10 * 60 * 1000;
const CHAIN_ID = 1;

export function createWalletLogin(deps: { db: Db; clock: Clock; accounts: Accounts }) {
  const { db, clock } = deps;
  return {
    async nonce(input: {
      address: string;
      host: string;
      origin: string;
      lang: Lang;
    }): Promise<WalletNonceData> {
      if (!isAddress(input.address, { strict: false })) refuse('BAD_INPUT', { field: 'address' });
      const now = clock.now();
      // EIP-4361 asks for at least 8 alphanumeric characters; 22 leave no room for guessing.
      const nonce = randomBytes(16)
        .toString('base64url')
        .replace(/[^A-Za-z0-9]/g, '')
        .slice(0, 22)
        .padEnd(22, '0');
      const expiresAt = new Date(now.getTime() + NONCE_TTL_MS);
      await repo.insertNonce(db, { nonce, address: input.address.toLowerCase(), expiresAt });
      return {
        nonce,
        domain: input.host,
        uri: input.origin,
        chain_id: CHAIN_ID,
        statement: translate('en', 'message.siweStatement'),
        issued_at: now.toISOString(),
        expiration_time: expiresAt.toISOString(),
        version: '1',
      };
    },

    async login(input: { message: string; signature: string; host: string; meta: RequestMeta }) {
      let fields: ReturnType<typeof parseSiweMessage>;
      try {
        fields = parseSiweMessage(input.message);
      } catch {
        refuse('WALLET_MESSAGE_INVALID', { field: 'message' });
      }
      const now = clock.now();
      if (!fields.address || !isAddress(fields.address))
        refuse('WALLET_MESSAGE_INVALID', { field: 'address' });
      if (fields.domain !== input.host) refuse('WALLET_MESSAGE_INVALID', { field: 'domain' });
      if (fields.version !== '1') refuse('WALLET_MESSAGE_INVALID', { field: 'version' });
      if (!fields.nonce) refuse('WALLET_MESSAGE_INVALID', { field: 'nonce' });
      if (fields.expirationTime && fields.expirationTime <= now) refuse('WALLET_NONCE_INVALID');
      if (fields.notBefore && fields.notBefore > now)
        refuse('WALLET_MESSAGE_INVALID', { field: 'notBefore' });
      if (!/^0x[0-9a-fA-F]{130}$/.test(input.signature)) refuse('WALLET_SIGNATURE_INVALID');
      // Pure computation, no I/O: a signature that is not a valid curve point throws (a plain Error
      // from the curve library, so it cannot be told apart by class) — that is an invalid signature.
      const valid = await verifyMessage({
        address: getAddress(fields.address),
        message: input.message,
        signature: input.signature as `0x${string}`,
      }).catch(() => false);
      if (!valid) refuse('WALLET_SIGNATURE_INVALID');
      const address = fields.address.toLowerCase();
      if (!(await repo.consumeNonce(db, { nonce: fields.nonce, address, at: now })))
        refuse('WALLET_NONCE_INVALID');
      const existing = await repo.findCustomer(db, { wallet: address });
      if (existing?.status === 'disabled') refuse('ACCOUNT_DISABLED');
      const customer =
        existing ??
        (await deps.accounts.newCustomer({
          passwordHash: null,
          invitedBy: null,
          wallet: address,
          lang: input.meta.lang,
        }));
      return { token: await deps.accounts.openSession(customer.id, input.meta), uid: customer.uid };
    },
  };
}

export type WalletLogin = ReturnType<typeof createWalletLogin>;
