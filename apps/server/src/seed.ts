import { hash } from '@node-rs/argon2';
import type { Logger } from 'pino';
import type { Db } from './db/database.ts';
import { newId, randomCode } from './lib/ids.ts';

/** Demo content for a fresh install (DEMO_CONTENT=true): a sample customer to sign in with. */
export const DEMO_CUSTOMER = { email: 'demo@bourse.local', password: 'demo1234' } as const;

export async function seedDemoContent(deps: { db: Db; log: Logger }): Promise<void> {
  const { db } = deps;
  const exists = await db
    .selectFrom('accounts_customer')
    .select('id')
    .where('email', '=', DEMO_CUSTOMER.email)
    .executeTakeFirst();
  if (exists) return;
  const now = new Date();
  const uid = await db
    .selectNoFrom((eb) => eb.fn<string>('nextval', [eb.val('accounts_uid_seq')]).as('uid'))
    .executeTakeFirstOrThrow();
  await db
    .insertInto('accounts_customer')
    .values({
      id: newId('usr', now.getTime()),
      uid: String(uid.uid),
      name: 'demo',
      email: DEMO_CUSTOMER.email,
      phone: null,
      area_code: '',
      country: '',
      password_hash: await hash(DEMO_CUSTOMER.password, { memoryCost: 19_456, timeCost: 2, parallelism: 1 }),
      invitation_code: randomCode(8),
      invited_by: null,
      is_demo: false,
      demo_expires_at: null,
      wallet_address: null,
      language: 'en',
      status: 'active',
      failed_logins: 0,
      locked_until: null,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.doNothing())
    .execute();
  deps.log.info(`demo content: sign in as ${DEMO_CUSTOMER.email} / ${DEMO_CUSTOMER.password}`);
}
