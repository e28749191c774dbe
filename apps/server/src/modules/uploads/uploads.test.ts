import { translate } from '@bourse/i18n';
import { UPLOAD_LIMITS } from '@bourse/protocol';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp } from '../../../test/harness.ts';
import { inTransaction } from '../../db/database.ts';
import { customer } from '../assets/testing.ts';
import { adminCall, staffSession } from '../staff/testing.ts';
import { photo, pngHeader, uploadDocument } from './testing.ts';

/**
 * The upload battery (issue 15), through HTTP: what comes back has no metadata; each bad file is
 * refused with its own reason and message in three languages; files are private to their owner and
 * to staff with the permission (each staff view audited); links expire and cannot be altered; the
 * retention job deletes what is due at a stepped clock, and only that.
 */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ feedTickMs: 0 });
});
afterAll(async () => {
  await t.close();
});

/** Whether an EXIF block (TIFF, after `Exif\0\0` in a JPEG) has a GPS IFD pointer (tag 0x8825) in IFD0. */
function hasGpsIfd(exif: Buffer | undefined): boolean {
  if (!exif) return false;
  const tiff = exif.toString('latin1', 0, 4) === 'Exif' ? exif.subarray(6) : exif;
  const le = tiff.toString('latin1', 0, 2) === 'II';
  const u16 = (o: number) => (le ? tiff.readUInt16LE(o) : tiff.readUInt16BE(o));
  const u32 = (o: number) => (le ? tiff.readUInt32LE(o) : tiff.readUInt32BE(o));
  const ifd0 = u32(4);
  const count = u16(ifd0);
  for (let i = 0; i < count; i++) if (u16(ifd0 + 2 + i * 12) === 0x8825) return true;
  return false;
}

async function fetchLink(url: string) {
  const response = await t.app.inject({ method: 'GET', url });
  return response;
}

async function link(token: string, fileId: string) {
  return call(t.app, { method: 'GET', call: 'documentLink', fields: { token, file_id: fileId } });
}

describe('what comes back', () => {
  it('a PNG with GPS EXIF is stored and served without any metadata', async () => {
    const c = await customer(t);
    const gps = await photo('png', {
      exif: {
        IFD0: { Make: 'Phone', Model: 'Camera' },
        IFD3: {
          GPSLatitudeRef: 'N',
          GPSLatitude: '22/1 17/1 0/1',
          GPSLongitudeRef: 'E',
          GPSLongitude: '114/1 10/1 0/1',
        },
      },
    });
    expect(hasGpsIfd((await sharp(gps).metadata()).exif)).toBe(true);
    const up = await uploadDocument(t, {
      token: c.token,
      file: { filename: 'me.png', type: 'image/png', bytes: gps },
    });
    expect(up.code).toBe(1);
    expect(up.data).toMatchObject({ mime: 'image/png', width: 64, height: 48, purpose: 'verification' });
    const l = await link(c.token, up.data.file_id);
    expect(l.code).toBe(1);
    const served = await fetchLink(l.data.url);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['cache-control']).toBe('no-store');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    const meta = await sharp(served.rawPayload).metadata();
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(meta.icc).toBeUndefined();
    expect(served.rawPayload.length).toBe(up.data.size);
  });

  it('a JPEG is turned upright by its EXIF orientation, then the orientation is gone too', async () => {
    const c = await customer(t);
    const sideways = await photo('jpeg', { width: 64, height: 48, orientation: 6 });
    expect((await sharp(sideways).metadata()).orientation).toBe(6);
    const up = await uploadDocument(t, {
      token: c.token,
      file: { filename: 'x.jpeg', type: 'image/jpeg', bytes: sideways },
    });
    expect(up.code).toBe(1);
    expect([up.data.width, up.data.height]).toEqual([48, 64]);
    const served = await fetchLink((await link(c.token, up.data.file_id)).data.url);
    const meta = await sharp(served.rawPayload).metadata();
    expect([meta.width, meta.height, meta.orientation, meta.exif]).toEqual([48, 64, undefined, undefined]);
  });

  it('is stored sealed: the bytes at rest are neither the upload nor the image served', async () => {
    const c = await customer(t);
    const bytes = await photo('jpeg', { seed: 99 });
    const up = await uploadDocument(t, {
      token: c.token,
      file: { filename: 'a.jpg', type: 'image/jpeg', bytes },
    });
    const row = await t.db
      .selectFrom('uploads_file')
      .selectAll()
      .where('id', '=', up.data.file_id)
      .executeTakeFirstOrThrow();
    const served = await fetchLink((await link(c.token, up.data.file_id)).data.url);
    expect(row.ciphertext?.length).toBe(served.rawPayload.length);
    expect(row.ciphertext?.equals(served.rawPayload)).toBe(false);
    expect(row.ciphertext?.includes(served.rawPayload.subarray(0, 64))).toBe(false);
    expect(row.sha256).toBe(up.data.sha256);
  });
});

describe('each bad file is refused with its own reason and message, in three languages', () => {
  let token: string;
  beforeAll(async () => {
    token = (await customer(t)).token;
  });

  const jpeg = () => photo('jpeg', { width: 96, height: 96, seed: 3 });
  const cases: Array<
    [string, () => Promise<{ filename: string; type: string; bytes: Buffer } | undefined>, string, number]
  > = [
    [
      'a PDF renamed .jpg',
      async () => ({
        filename: 'id.jpg',
        type: 'image/jpeg',
        bytes: Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer\n%%EOF\n'),
      }),
      'UPLOAD_TYPE_INVALID',
      415,
    ],
    [
      'an HTML/JPEG polyglot',
      async () => {
        const img = await jpeg();
        const markup = Buffer.from('<html><body><script>alert(document.cookie)</script></body></html>');
        const com = Buffer.alloc(4);
        com.writeUInt16BE(0xfffe, 0);
        com.writeUInt16BE(markup.length + 2, 2);
        return {
          filename: 'x.jpg',
          type: 'image/jpeg',
          bytes: Buffer.concat([img.subarray(0, 2), com, markup, img.subarray(2)]),
        };
      },
      'UPLOAD_ACTIVE_CONTENT',
      415,
    ],
    [
      'a 0-byte file',
      async () => ({ filename: 'empty.jpg', type: 'image/jpeg', bytes: Buffer.alloc(0) }),
      'UPLOAD_EMPTY',
      400,
    ],
    ['no file at all', async () => undefined, 'UPLOAD_EMPTY', 400],
    [
      '8 MB + 1 byte',
      async () => {
        const img = await jpeg();
        return {
          filename: 'big.jpg',
          type: 'image/jpeg',
          bytes: Buffer.concat([img, Buffer.alloc(UPLOAD_LIMITS.maxBytes + 1 - img.length)]),
        };
      },
      'UPLOAD_TOO_LARGE',
      413,
    ],
    [
      'a 30,000 × 30,000 image',
      async () => ({ filename: 'bomb.png', type: 'image/png', bytes: pngHeader(30_000, 30_000) }),
      'UPLOAD_TOO_MANY_PIXELS',
      413,
    ],
    [
      'a truncated JPEG',
      async () => {
        const img = await jpeg();
        return {
          filename: 'cut.jpg',
          type: 'image/jpeg',
          bytes: img.subarray(0, Math.floor(img.length * 0.6)),
        };
      },
      'UPLOAD_CORRUPT',
      400,
    ],
  ];

  for (const [what, make, reason, status] of cases) {
    it(`${what}: ${reason}`, async () => {
      const file = await make();
      const before = await t.db
        .selectFrom('uploads_file')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow();
      const messages = new Set<string>();
      for (const lang of ['en', 'zh', 'ft'] as const) {
        const answer = await uploadDocument(t, { token, file, lang });
        expect(answer.reason).toBe(reason);
        expect(answer.status).toBe(status);
        expect(answer.msg).toBe(
          translate(lang, `reason.${reason}`, (answer.params ?? {}) as Record<string, string>),
        );
        expect(answer.msg).not.toContain('reason.');
        messages.add(answer.msg);
      }
      expect(messages.size).toBe(3);
      const after = await t.db
        .selectFrom('uploads_file')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow();
      expect(after.n).toBe(before.n);
    });
  }

  it('the pixel refusal names the declared size, read without decoding', async () => {
    const answer = await uploadDocument(t, {
      token,
      file: { filename: 'b.png', type: 'image/png', bytes: pngHeader(30_000, 30_000) },
    });
    expect(answer.params).toEqual({ maxPixels: UPLOAD_LIMITS.maxPixels, width: 30_000, height: 30_000 });
  });

  it('exactly 8 MiB is accepted (the limit is inclusive)', async () => {
    const img = await jpeg();
    const bytes = Buffer.concat([img, Buffer.alloc(UPLOAD_LIMITS.maxBytes - img.length)]);
    const answer = await uploadDocument(t, {
      token,
      file: { filename: 'full.jpg', type: 'image/jpeg', bytes },
    });
    expect(answer.code).toBe(1);
  });

  it('a purpose no module takes, a demo account and a signed-out call are refused', async () => {
    const file = { filename: 'a.jpg', type: 'image/jpeg', bytes: await jpeg() };
    expect((await uploadDocument(t, { token, file, purpose: 'selfie' })).reason).toBe(
      'UPLOAD_PURPOSE_INVALID',
    );
    const demo = await call(t.app, { method: 'GET', call: 'tempLogin' });
    expect((await uploadDocument(t, { token: demo.data.token, file })).reason).toBe('REAL_ACCOUNT_REQUIRED');
    expect((await uploadDocument(t, { token: '', file })).reason).toBe('LOGIN_REQUIRED');
    // Without a token the body is not even read: an oversized file is refused for the session, not its size.
    const big = { ...file, bytes: Buffer.concat([file.bytes, Buffer.alloc(UPLOAD_LIMITS.maxBytes)]) };
    expect((await uploadDocument(t, { token: '', file: big })).reason).toBe('LOGIN_REQUIRED');
  });
});

describe('idempotent by rtoken', () => {
  it('a retry gets the first answer; the same rtoken with another file is RTOKEN_REUSED', async () => {
    const c = await customer(t);
    const file = { filename: 'a.jpg', type: 'image/jpeg', bytes: await photo('jpeg', { seed: 11 }) };
    const first = await uploadDocument(t, { token: c.token, file, rtoken: 'uprt000001' });
    const again = await uploadDocument(t, { token: c.token, file, rtoken: 'uprt000001' });
    expect(again.headers['x-idempotent-replay']).toBe('1');
    expect(again.data.file_id).toBe(first.data.file_id);
    const other = { ...file, bytes: await photo('jpeg', { seed: 12 }) };
    expect((await uploadDocument(t, { token: c.token, file: other, rtoken: 'uprt000001' })).reason).toBe(
      'RTOKEN_REUSED',
    );
    const rows = await t.db.selectFrom('uploads_file').select('id').where('customer_id', '=', c.id).execute();
    expect(rows).toHaveLength(1);
  });
});

describe('who may see a document', () => {
  it("another customer's document is NOT_FOUND, exactly like an unknown one", async () => {
    const owner = await customer(t);
    const other = await customer(t);
    const up = await uploadDocument(t, {
      token: owner.token,
      file: { filename: 'a.png', type: 'image/png', bytes: await photo('png') },
    });
    const theirs = await link(other.token, up.data.file_id);
    const unknown = await link(other.token, 'upl_00000000000000000000000000');
    expect([theirs.reason, unknown.reason]).toEqual(['NOT_FOUND', 'NOT_FOUND']);
    expect(theirs.msg).toBe(unknown.msg);
  });

  it('a link expires after 5 minutes and cannot be altered', async () => {
    const c = await customer(t);
    const up = await uploadDocument(t, {
      token: c.token,
      file: { filename: 'a.png', type: 'image/png', bytes: await photo('png') },
    });
    const l = (await link(c.token, up.data.file_id)).data;
    const url = new URL(l.url, 'http://x');
    const tampered = (mutate: (q: URLSearchParams) => void) => {
      const q = new URLSearchParams(url.search);
      mutate(q);
      return `${url.pathname}?${q.toString()}`;
    };
    const later = String(Number(url.searchParams.get('exp')) + 3_600_000);
    const altered = [
      tampered((q) => q.set('exp', later)),
      tampered((q) =>
        q.set('sig', `${(q.get('sig') ?? '').slice(0, 63)}${q.get('sig')?.endsWith('0') ? '1' : '0'}`),
      ),
      tampered((q) => q.set('by', 's:stf_someone')),
    ];
    for (const u of altered) {
      const r = await fetchLink(u);
      expect(r.statusCode).toBe(403);
      expect(r.json().reason).toBe('FILE_LINK_INVALID');
    }
    const otherFile = await uploadDocument(t, {
      token: c.token,
      file: { filename: 'b.png', type: 'image/png', bytes: await photo('png', { seed: 5 }) },
    });
    const moved = await fetchLink(`/api/files/${otherFile.data.file_id}${url.search}`);
    expect(moved.json().reason).toBe('FILE_LINK_INVALID');
    t.clock.advance(UPLOAD_LIMITS.linkSeconds * 1000 - 1);
    expect((await fetchLink(l.url)).statusCode).toBe(200);
    t.clock.advance(1);
    const expired = await fetchLink(l.url);
    expect(expired.statusCode).toBe(403);
    expect(expired.json().reason).toBe('FILE_LINK_EXPIRED');
  });

  it('staff with verification.read get a link, and the view is in the audit log; others are refused', async () => {
    const c = await customer(t);
    const up = await uploadDocument(t, {
      token: c.token,
      file: { filename: 'a.png', type: 'image/png', bytes: await photo('png') },
    });
    const compliance = await staffSession(t, ['compliance']);
    const finance = await staffSession(t, ['finance']);
    const refused = await adminCall(t.app, {
      method: 'GET',
      call: 'documents/link',
      token: finance.token,
      fields: { file_id: up.data.file_id },
    });
    expect(refused.reason).toBe('FORBIDDEN');
    const given = await adminCall(t.app, {
      method: 'GET',
      call: 'documents/link',
      token: compliance.token,
      fields: { file_id: up.data.file_id },
    });
    expect(given.code).toBe(1);
    const served = await fetchLink(given.data.url);
    expect(served.statusCode).toBe(200);
    const audit = await adminCall(t.app, {
      method: 'GET',
      call: 'getAuditLog',
      token: compliance.token,
      fields: { target_id: up.data.file_id },
    });
    expect(audit.data.list).toHaveLength(1);
    expect(audit.data.list[0]).toMatchObject({
      action: 'document.view',
      actor_id: compliance.staffId,
      target_type: 'upload',
    });
    expect(audit.data.list[0].after).toMatchObject({ customer_id: c.id, purpose: 'verification' });
  });

  it('verification.read opens identity documents only: a remittance proof is not found, and nothing is audited', async () => {
    const c = await customer(t);
    const proof = await uploadDocument(t, {
      token: c.token,
      purpose: 'deposit_proof',
      file: { filename: 'p.png', type: 'image/png', bytes: await photo('png', { seed: 9 }) },
    });
    expect(proof.code).toBe(1);
    const compliance = await staffSession(t, ['compliance']);
    const refused = await adminCall(t.app, {
      method: 'GET',
      call: 'documents/link',
      token: compliance.token,
      fields: { file_id: proof.data.file_id },
    });
    expect(refused.reason).toBe('NOT_FOUND');
    const audit = await adminCall(t.app, {
      method: 'GET',
      call: 'getAuditLog',
      token: compliance.token,
      fields: { target_id: proof.data.file_id },
    });
    expect(audit.data.list).toHaveLength(0);
  });
});

describe('retention', () => {
  const countDeleted = async (ids: string[]) =>
    (
      await t.db
        .selectFrom('uploads_file')
        .select(['id', 'deleted_at', 'delete_reason', 'ciphertext'])
        .where('id', 'in', ids)
        .execute()
    ).filter((r) => r.deleted_at !== null);

  it('a file never attached goes after 24 h; an attached one when its retention ends; a run twice deletes nothing more', async () => {
    const c = await customer(t);
    const file = async (seed: number) =>
      (
        await uploadDocument(t, {
          token: c.token,
          file: { filename: 'a.png', type: 'image/png', bytes: await photo('png', { seed }) },
        })
      ).data.file_id as string;
    const loose = await file(21);
    const kept = await file(22);
    const uploads = t.app.uploads.service;
    const claimed = await inTransaction(t.db, (tx) =>
      uploads.attach(tx, {
        fileId: kept,
        customerId: c.id,
        purpose: 'verification',
        ref: 'test:kept',
        retainUntil: new Date(t.clock.now().getTime() + 3 * 86_400_000),
      }),
    );
    expect(claimed?.id).toBe(kept);
    // Claimed once: a second claim (or anyone else's) gets nothing.
    expect(
      await inTransaction(t.db, (tx) =>
        uploads.attach(tx, {
          fileId: kept,
          customerId: c.id,
          purpose: 'verification',
          ref: 'x',
          retainUntil: t.clock.now(),
        }),
      ),
    ).toBeNull();

    t.clock.advance(24 * 3_600_000 - 1);
    await t.app.uploads.sweep.runOnce();
    expect(await countDeleted([loose, kept])).toHaveLength(0);
    t.clock.advance(2);
    await t.app.uploads.sweep.runOnce();
    const gone = await countDeleted([loose, kept]);
    expect(gone.map((r) => [r.id, r.delete_reason, r.ciphertext])).toEqual([[loose, 'unattached', null]]);
    expect((await link(c.token, loose)).reason).toBe('NOT_FOUND');

    t.clock.advance(2 * 86_400_000);
    await t.app.uploads.sweep.runOnce();
    expect((await countDeleted([kept])).map((r) => r.delete_reason)).toEqual(['retention']);
    expect(await t.app.uploads.sweep.runOnce()).toBe(0);
  });

  it('a row another transaction holds is skipped and taken by the next run (a crashed run resumes)', async () => {
    const c = await customer(t);
    const id = (
      await uploadDocument(t, {
        token: c.token,
        file: { filename: 'a.png', type: 'image/png', bytes: await photo('png', { seed: 31 }) },
      })
    ).data.file_id as string;
    t.clock.advance(25 * 3_600_000);
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked: () => void = () => {};
    const isLocked = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const holder = t.db.transaction().execute(async (tx) => {
      await tx.selectFrom('uploads_file').select('id').where('id', '=', id).forUpdate().execute();
      locked();
      await held;
    });
    await isLocked;
    await t.app.uploads.sweep.runOnce();
    expect(await countDeleted([id])).toHaveLength(0);
    release();
    await holder;
    await t.app.uploads.sweep.runOnce();
    expect(await countDeleted([id])).toHaveLength(1);
  });
});
