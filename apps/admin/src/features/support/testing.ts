import type {
  AdminSupportCannedData,
  AdminSupportConversationData,
  AdminSupportDetailData,
  AdminSupportMetricsData,
} from '@bourse/protocol';
import { type MockedApi, mockApi, signIn } from '../../test/api.ts';
import { NOW } from '../../test/fixtures.ts';

/** What the mocked support console answers in the component tests. */

export const ALL = ['support.read', 'support.write'];

export function conversation(
  overrides: Partial<AdminSupportConversationData> = {},
): AdminSupportConversationData {
  return {
    id: 'sup_1',
    subject: 'Deposit missing',
    status: 'open',
    ref_type: 'c2c_order',
    ref_id: 'cod_77',
    created_at: NOW - 3_600_000,
    updated_at: NOW - 60_000,
    last_seq: 3,
    customer_uid: '100001',
    customer_lang: 'zh',
    assignee_id: null,
    assignee_name: null,
    first_response_at: null,
    resolved_at: null,
    ...overrides,
  };
}

export function detail(overrides: Partial<AdminSupportDetailData> = {}): AdminSupportDetailData {
  return {
    ...conversation(),
    messages: [
      {
        seq: 1,
        from: 'customer',
        body: '我的充值没有到账',
        file_id: null,
        staff: null,
        staff_id: null,
        out_of_hours: true,
        at: NOW - 3_600_000,
        url: null,
      },
      {
        seq: 2,
        from: 'customer',
        body: null,
        file_id: 'upl_1',
        staff: null,
        staff_id: null,
        out_of_hours: false,
        at: NOW - 3_000_000,
        url: 'https://files.test/upl_1?sig=1',
      },
      {
        seq: 3,
        from: 'note',
        body: 'Check the bank batch',
        file_id: null,
        staff: null,
        staff_id: 'stf_me',
        out_of_hours: false,
        at: NOW - 2_000_000,
        url: null,
      },
    ],
    ...overrides,
  };
}

export const CANNED: AdminSupportCannedData[] = [
  {
    id: 'scr_1',
    title: 'Greeting',
    body_en: 'Hello, looking into it.',
    body_zh: '您好，正在为您查看。',
    body_ft: '您好，正在為您查看。',
    updated_at: NOW,
  },
];

export const METRICS: AdminSupportMetricsData = {
  days: 30,
  from: NOW - 30 * 86_400_000,
  to: NOW,
  conversations: 12,
  answered: 10,
  resolved: 8,
  first_response_median_minutes: 14.5,
  resolution_median_minutes: 95,
};

export function supportApi(permissions: string[] = ALL): MockedApi {
  const api = mockApi({
    'support/queue': () => ({ total: 1, page: 1, page_size: 50, items: [conversation()] }),
    'support/conversations/sup_1': () => detail(),
    'support/conversations/sup_1/reply': () => ({ seq: 4 }),
    'support/conversations/sup_1/note': () => ({ seq: 4, at: NOW }),
    'support/conversations/sup_1/status': () => conversation({ status: 'resolved' }),
    'support/conversations/sup_1/assign': () => conversation({ assignee_id: 'stf_me', assignee_name: 'Ops' }),
    'support/canned': () => CANNED,
    'support/metrics': () => METRICS,
    'support/me': () => ({ staff_id: 'stf_me', code: 'BS-7K2Q9M', name: 'Ops' }),
  });
  signIn(api, permissions);
  return api;
}
