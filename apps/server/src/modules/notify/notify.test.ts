import { translate } from '@bourse/i18n';
import { LANGS } from '@bourse/protocol';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testNow } from '../../../test/harness.ts';
import { createDb, type Db } from '../../db/database.ts';
import { type ManualClock, manualClock } from '../../lib/clock.ts';
import { issueCode } from '../accounts/codes.ts';
import { createNotifier, type Message, type Transport } from './index.ts';
import { listOutbox } from './repo.ts';

/** A logger whose lines (every level from info) the test reads. */
function capturingLogger() {
  const lines: Array<{ level: number; msg: string; to?: string; err?: { message: string } }> = [];
  const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { log, lines };
}

/** A transport that records what it was given, and fails when told to. */
function recordingTransport() {
  const sent: Array<{ from: string; to: string; subject: string; text: string }> = [];
  let failWith: Error | null = null;
  const transport: Transport = {
    async sendMail(mail) {
      if (failWith) throw failWith;
      sent.push(mail);
      return { messageId: `m${sent.length}` };
    },
  };
  return {
    transport,
    sent,
    fail(error: Error | null) {
      failWith = error;
    },
  };
}

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let handle: ReturnType<typeof createDb>;
let db: Db;
let clock: ManualClock;
let n = 0;
const recipient = () => `notify${++n}@example.com`;

async function rowsOf(to: string) {
  return db
    .selectFrom('notify_outbox')
    .select(['channel', 'recipient', 'subject', 'body', 'delivery', 'created_at'])
    .where('recipient', '=', to)
    .orderBy('id')
    .execute();
}

beforeAll(async () => {
  database = await createTestDatabase();
  handle = createDb(database.url, { max: 4 });
  db = handle.db;
  clock = manualClock(testNow());
});
afterAll(async () => {
  await handle.db.destroy();
  await database.drop();
});

describe('the notifier without SMTP (the embedded default): everything lands in the outbox', () => {
  it('files each message as given, at the clock, and logs one info line naming the recipient and code', async () => {
    const { log, lines } = capturingLogger();
    const notifier = await createNotifier({ db, log, clock, smtp: null });
    const to = recipient();
    const message: Message = {
      channel: 'email',
      recipient: to,
      subject: 'S',
      body: 'B 123456',
      code: '123456',
    };
    await notifier.send(message);
    expect(await rowsOf(to)).toEqual([
      {
        channel: 'email',
        recipient: to,
        subject: 'S',
        body: 'B 123456',
        delivery: 'outbox',
        created_at: clock.now(),
      },
    ]);
    expect(lines.map((l) => [l.level, l.msg])).toEqual([[30, `outbox to=${to} code=123456`]]);
    // A message without a code (a notice) logs no code.
    await notifier.send({ channel: 'sms', recipient: '+85291234567', subject: 'N', body: 'notice' });
    expect(lines.at(-1)?.msg).toBe('outbox to=+85291234567');
    expect(lines.every((l) => l.level < 50)).toBe(true);
  });

  it('is not idempotent: each call files one message (callers send once, after their commit)', async () => {
    const notifier = await createNotifier({ db, log: capturingLogger().log, clock, smtp: null });
    const to = recipient();
    const message: Message = { channel: 'email', recipient: to, subject: 'twice', body: 'same' };
    await notifier.send(message);
    await notifier.send(message);
    expect((await rowsOf(to)).map((r) => r.subject)).toEqual(['twice', 'twice']);
  });

  it('latest(): that recipient’s messages only, newest first, at most the limit', async () => {
    const notifier = await createNotifier({ db, log: capturingLogger().log, clock, smtp: null });
    const [to, other] = [recipient(), recipient()];
    for (const i of [1, 2, 3]) {
      clock.advance(1_000);
      await notifier.send({ channel: 'email', recipient: to, subject: `s${i}`, body: `b${i}` });
      await notifier.send({ channel: 'email', recipient: other, subject: `o${i}`, body: `o${i}` });
    }
    const latest = await notifier.latest(to, 2);
    expect(latest.map((m) => [m.subject, m.body])).toEqual([
      ['s3', 'b3'],
      ['s2', 'b2'],
    ]);
    expect(latest[0]?.createdAt).toEqual(clock.now());
    expect((await notifier.latest(to)).length).toBe(3);
  });

  it('the back-office list pages the outbox newest first', async () => {
    const first = await listOutbox(db, { limit: 2 });
    expect(first).toHaveLength(2);
    const [newest, second] = [first[0]?.id ?? '', first[1]?.id ?? ''];
    expect(newest > second).toBe(true);
    const next = await listOutbox(db, { limit: 2, beforeId: second });
    expect((next[0]?.id ?? '') < second).toBe(true);
    expect(first[0]).toMatchObject({ channel: 'email', delivery: 'outbox' });
    expect(typeof first[0]?.created_at).toBe('number');
  });
});

describe('the notifier with SMTP', () => {
  const smtp = { url: 'smtp://mail.example.com:587', from: 'Bourse <no-reply@example.com>' };

  it('sends email through the transport, from the configured sender, and files it as sent', async () => {
    const { log, lines } = capturingLogger();
    const { transport, sent } = recordingTransport();
    const notifier = await createNotifier({ db, log, clock, smtp, transport });
    const to = recipient();
    await notifier.send({ channel: 'email', recipient: to, subject: 'Hello', body: 'Body', code: '999999' });
    expect(sent).toEqual([{ from: smtp.from, to, subject: 'Hello', text: 'Body' }]);
    expect((await rowsOf(to)).map((r) => r.delivery)).toEqual(['sent']);
    // Sent mail leaves no outbox line (and so no code) in the log.
    expect(lines).toEqual([]);
  });

  it('SMS has no sender: it goes to the outbox, the transport is not called', async () => {
    const { transport, sent } = recordingTransport();
    const notifier = await createNotifier({ db, log: capturingLogger().log, clock, smtp, transport });
    await notifier.send({ channel: 'sms', recipient: '+85290000001', subject: 'S', body: 'B' });
    expect(sent).toEqual([]);
    expect((await rowsOf('+85290000001')).map((r) => r.delivery)).toEqual(['outbox']);
  });

  it('a failed delivery is logged as an error, kept as failed, and not thrown at the caller', async () => {
    const { log, lines } = capturingLogger();
    const { transport, fail } = recordingTransport();
    fail(new Error('connection refused'));
    const notifier = await createNotifier({ db, log, clock, smtp, transport });
    const to = recipient();
    await expect(
      notifier.send({ channel: 'email', recipient: to, subject: 'S', body: 'B', code: '111111' }),
    ).resolves.toBeUndefined();
    expect((await rowsOf(to)).map((r) => r.delivery)).toEqual(['failed']);
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      [50, 'smtp delivery failed; kept in the outbox'],
      [30, `outbox to=${to} code=111111`],
    ]);
    expect(lines[0]).toMatchObject({ to, err: { message: 'connection refused' } });
  });
});

describe('what the accounts module sends: a code or a notice, in the customer’s language', () => {
  const secret = 'notify-test-secret';

  for (const lang of LANGS) {
    it(`${lang}: the code message carries the code; a notice never does`, async () => {
      const notifier = await createNotifier({ db, log: capturingLogger().log, clock, smtp: null });
      const to = recipient();
      clock.advance(120_000);
      await issueCode(
        { db, clock, secret, notifier },
        { target: to, channel: 'email', scene: 'register', lang },
      );
      const [code] = await rowsOf(to);
      const digits = code?.body.match(/\d{6}/)?.[0] ?? '';
      expect(digits).toMatch(/^\d{6}$/);
      expect(code).toMatchObject({
        subject: translate(lang, 'message.codeSubject'),
        body: translate(lang, 'message.codeBody', { code: digits, minutes: 10 }),
      });
      const stranger = recipient();
      await issueCode(
        { db, clock, secret, notifier },
        { target: stranger, channel: 'email', scene: 'reset', lang, notice: 'unknown' },
      );
      const [notice] = await rowsOf(stranger);
      expect(notice).toMatchObject({
        subject: translate(lang, 'message.noticeSubject'),
        body: translate(lang, 'message.noticeUnknown'),
      });
      expect(notice?.body).not.toMatch(/\d{6}/);
      if (lang !== 'en') expect(code?.subject).not.toBe(translate('en', 'message.codeSubject'));
    });
  }
});

describe('the anti-phishing phrase, added centrally to every message', () => {
  it('asks the port for the message’s customer and writes the phrase into the subject, first line or SMS start', async () => {
    const asked: Array<{ customerId?: string; recipient: string }> = [];
    const phrases = {
      async phraseFor(input: { customerId?: string; recipient: string }) {
        asked.push(input);
        return input.customerId === 'usr_known' || input.recipient.startsWith('known') ? 'Blue heron' : null;
      },
    };
    const notifier = await createNotifier({ db, log: capturingLogger().log, clock, smtp: null, phrases });
    const known = `known${recipient()}`;
    await notifier.send({
      channel: 'email',
      recipient: known,
      subject: 'Code',
      body: 'Your code is 123456.',
    });
    expect(await rowsOf(known)).toMatchObject([
      { subject: '[Blue heron] Code', body: '[Blue heron]\n\nYour code is 123456.' },
    ]);
    await notifier.send({
      channel: 'sms',
      recipient: '+85290000077',
      subject: 'S',
      body: 'Hello',
      customerId: 'usr_known',
    });
    expect(await rowsOf('+85290000077')).toMatchObject([{ subject: 'S', body: '[Blue heron] Hello' }]);
    expect(asked.at(-1)).toEqual({ recipient: '+85290000077', customerId: 'usr_known' });
    // No customer, no phrase: the message is filed as given.
    const stranger = recipient();
    await notifier.send({ channel: 'email', recipient: stranger, subject: 'Welcome', body: 'Hi' });
    expect(await rowsOf(stranger)).toMatchObject([{ subject: 'Welcome', body: 'Hi' }]);
  });

  it('SMTP sends what is filed: the phrase is in the mail too', async () => {
    const { transport, sent } = recordingTransport();
    const notifier = await createNotifier({
      db,
      log: capturingLogger().log,
      clock,
      smtp: { url: 'smtp://mail.example.com:587', from: 'Bourse <no-reply@example.com>' },
      transport,
      phrases: { phraseFor: async () => 'Quiet river' },
    });
    const to = recipient();
    await notifier.send({ channel: 'email', recipient: to, subject: 'Hello', body: 'Body' });
    expect(sent[0]).toMatchObject({ subject: '[Quiet river] Hello', text: '[Quiet river]\n\nBody' });
  });
});
