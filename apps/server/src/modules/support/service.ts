import type {
  AdminSupportCannedBody,
  AdminSupportQueueQuery,
  SupportSendBody,
  SupportStartBody,
  SupportStatus,
} from '@bourse/protocol';
import { inTransaction } from '../../db/database.ts';
import type { AuthContext } from '../../http/context.ts';
import type { StaffContext } from '../../http/staff.ts';
import { newId } from '../../lib/ids.ts';
import * as staffSide from './console.ts';
import { DEFAULT_HOURS, type SupportDeps } from './context.ts';
import * as customer from './customer.ts';
import * as repo from './repo.ts';

/** Demo content: three canned replies in three languages (README.md, "Demo content"). */
const DEMO_CANNED = [
  {
    title: 'Greeting',
    body_en: 'Hello, thank you for contacting us. I am looking into this now.',
    body_zh: '您好，感谢您的联系。我正在为您查看。',
    body_ft: '您好，感謝您的聯絡。我正在為您查看。',
  },
  {
    title: 'Safety reminder',
    body_en:
      'Please note: our staff never ask for your password, verification codes or a transfer. You can check my staff code in the app.',
    body_zh:
      '温馨提示：我们的工作人员绝不会索取您的密码、验证码，也不会要求您转账。您可以在应用内核实我的工号。',
    body_ft:
      '溫馨提示：我們的工作人員絕不會索取您的密碼、驗證碼，也不會要求您轉帳。您可以在應用程式內核實我的工號。',
  },
  {
    title: 'Resolved',
    body_en: 'I have marked this as resolved. If anything else comes up, just write here and it reopens.',
    body_zh: '我已将此问题标记为已解决。如有其他问题，直接在此回复即可重新打开。',
    body_ft: '我已將此問題標記為已解決。如有其他問題，直接在此回覆即可重新開啟。',
  },
] as const;

/** Customer service, wired from its parts (README.md). All SQL is in repo.ts. */
export function createSupport(deps: SupportDeps) {
  return {
    // ---- customers
    info: () => customer.info(deps),
    conversations: (auth: AuthContext) => customer.conversations(deps, auth),
    start: (auth: AuthContext, body: SupportStartBody) => customer.start(deps, auth, body),
    messages: (auth: AuthContext, id: string, after: number) => customer.messagesOf(deps, auth, id, after),
    send: (auth: AuthContext, body: SupportSendBody) => customer.send(deps, auth, body),
    fileLink: (auth: AuthContext, q: { id: string; file_id: string }) => customer.fileLink(deps, auth, q),
    verifyStaff: (code: string) => customer.verifyStaff(deps, code),

    // ---- staff
    queue: (staff: StaffContext, q: AdminSupportQueueQuery) => staffSide.queue(deps, staff, q),
    detail: (staff: StaffContext, id: string) => staffSide.detail(deps, staff, id),
    assign: (staff: StaffContext, id: string, to?: string) => staffSide.assign(deps, staff, id, to),
    reply: (staff: StaffContext, id: string, body: string) => staffSide.reply(deps, staff, id, body),
    note: (staff: StaffContext, id: string, body: string) => staffSide.note(deps, staff, id, body),
    setStatus: (staff: StaffContext, id: string, status: SupportStatus) =>
      staffSide.setStatus(deps, staff, id, status),
    canned: async () => (await repo.cannedList(deps.db)).map(staffSide.cannedData),
    saveCanned: (staff: StaffContext, id: string | null, body: AdminSupportCannedBody) =>
      staffSide.saveCanned(deps, staff, { id, body }),
    deleteCanned: (staff: StaffContext, id: string) => staffSide.deleteCanned(deps, staff, id),
    metrics: (days?: string) => staffSide.metrics(deps, days),
    hours: () => customer.info(deps),
    setHours: async (staff: StaffContext, text: string) => {
      await staffSide.setHours(deps, staff, text);
      return customer.info(deps);
    },
    me: (staff: StaffContext) => staffSide.me(deps, staff),

    /** Demo content: the default staffed hours and three canned replies, once (a fresh install). */
    async seedDemo() {
      await inTransaction(deps.db, async (tx) => {
        const now = deps.clock.now();
        if ((await repo.hours(tx)) === null)
          await repo.setHours(tx, { hours: DEFAULT_HOURS, at: now, by: null });
        if ((await repo.cannedCount(tx)) > 0) return;
        for (const c of DEMO_CANNED)
          await repo.insertCanned(tx, {
            id: newId('scr', now.getTime()),
            ...c,
            deleted_at: null,
            updated_at: now,
            updated_by: null,
          });
      });
    },
  };
}

export type Support = ReturnType<typeof createSupport>;
