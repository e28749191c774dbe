import type { AgreementData, AgreementKind, AgreementStatusData } from '@bourse/protocol';

/** 2026-11-21 04:00 UTC, and the day before. */
export const NOW = Date.UTC(2026, 10, 21, 4);
export const DAY = 86_400_000;

const TITLES: Record<string, Record<AgreementKind, string>> = {
  en: { user: 'User Agreement', privacy: 'Privacy Notice', risk: 'Risk Disclosure' },
  zh: { user: '用户协议', privacy: '隐私声明', risk: '风险披露' },
  ft: { user: '用戶協議', privacy: '隱私聲明', risk: '風險揭露' },
};

/** An agreement as `web/getAgreement` answers, version 2 in force, version 1 before it. */
export function agreement(
  kind: AgreementKind,
  lang = 'en',
  over: Partial<AgreementData> = {},
): AgreementData {
  const title = TITLES[lang]?.[kind] ?? kind;
  return {
    kind,
    version: 2,
    title,
    summary: lang === 'en' ? 'Section 2 now covers leverage.' : '第二节现在包括杠杆。',
    blocks: [
      { type: 'heading', level: 2, text: lang === 'en' ? '1. Your account' : '一、账户' },
      { type: 'paragraph', text: '<script>alert(1)</script> stays text' },
      { type: 'list', items: ['A', 'B'] },
    ],
    effective_at: NOW,
    current: true,
    versions: [
      { version: 2, title, effective_at: NOW },
      { version: 1, title, effective_at: NOW - 30 * DAY },
    ],
    ...over,
  };
}

export function status(over: Partial<AgreementStatusData> = {}): AgreementStatusData {
  return { pending: [], accepted: [], ...over };
}

export function pending(kind: AgreementKind, lang = 'en') {
  return {
    kind,
    version: 2,
    title: TITLES[lang]?.[kind] ?? kind,
    summary: lang === 'en' ? 'Section 2 now covers leverage.' : '第二节现在包括杠杆。',
    effective_at: NOW,
  };
}
