// @vitest-environment happy-dom
import { catalogs } from '@bourse/i18n';
import type {
  AdminAgreementsData,
  AdminAgreementVersionData,
  AdminAgreementVersionRow,
} from '@bourse/protocol';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { type MockedApi, mockApi, signIn } from '../../test/api.ts';
import { NOW } from '../../test/fixtures.ts';
import { watchMissingKeys } from '../../test/i18n.ts';
import { fill, renderAdmin } from '../../test/render.tsx';
import AgreementsScreen from './AgreementsScreen.tsx';

const row = (over: Partial<AdminAgreementVersionRow>): AdminAgreementVersionRow => ({
  kind: 'user',
  version: 1,
  status: 'published',
  title_en: 'User Agreement',
  effective_at: NOW,
  published_at: NOW,
  current: true,
  state: 'current',
  acceptances: 0,
  ...over,
});

const LIST: AdminAgreementsData = {
  kinds: [
    {
      kind: 'user',
      current_version: 2,
      versions: [
        row({
          version: 3,
          status: 'draft',
          state: 'draft',
          current: false,
          effective_at: null,
          published_at: null,
        }),
        row({ version: 2, acceptances: 1234 }),
        row({ version: 1, current: false, state: 'superseded', acceptances: 17 }),
      ],
    },
    { kind: 'privacy', current_version: null, versions: [] },
    { kind: 'risk', current_version: 1, versions: [row({ kind: 'risk', title_en: 'Risk Disclosure' })] },
  ],
};

const VERSION: AdminAgreementVersionData = {
  ...row({ kind: 'risk', title_en: 'Risk Disclosure' }),
  title_zh: '风险披露',
  title_ft: '風險揭露',
  summary_en: 'First version',
  summary_zh: '第一版',
  summary_ft: '第一版',
  body_en: '## Prices\n\nPrices move. <b>bold</b>\n\n- one\n- two',
  body_zh: '## 价格\n\n价格会波动。',
  body_ft: '## 價格\n\n價格會波動。',
};

let watch: ReturnType<typeof watchMissingKeys> | null = null;
afterEach(() => {
  watch?.stop();
  watch = null;
});

function setUp(): MockedApi {
  const api = mockApi({
    agreements: () => LIST,
    'agreements/version': () => VERSION,
    'agreements/draft': () => row({ kind: 'risk', version: 2, status: 'draft', state: 'draft' }),
    'agreements/publish': () => row({ version: 3 }),
  });
  signIn(api, ['content.write']);
  return api;
}

describe('the agreements back office', () => {
  it('lists every kind with its versions, states and acceptance counts', async () => {
    setUp();
    await renderAdmin(<AgreementsScreen />, { route: '/agreements' });
    const kinds = await screen.findAllByTestId('agreement-kind');
    expect(kinds.map((k) => k.dataset.kind)).toEqual(['user', 'privacy', 'risk']);
    const rows = within(kinds[0] as HTMLElement).getAllByTestId('agreement-version-row');
    expect(rows.map((r) => within(r).getByTestId('agreement-state').textContent)).toEqual([
      'Draft',
      'In force',
      'Superseded',
    ]);
    expect(within(rows[1] as HTMLElement).getByTestId('agreement-acceptances')).toHaveTextContent('1234');
    expect(kinds[0]).toHaveTextContent('In force: version 2');
    expect(within(kinds[0] as HTMLElement).getByTestId('agreement-new-draft')).toHaveTextContent(
      'Edit the draft',
    );
    expect(within(kinds[1] as HTMLElement).getByTestId('agreement-empty')).toHaveTextContent(
      'No versions yet.',
    );
  });

  it('drafts the next version from the one in force, previews it as customers will see it, and saves all three languages', async () => {
    const api = setUp();
    const { user } = await renderAdmin(<AgreementsScreen />, { route: '/agreements' });
    const risk = (await screen.findAllByTestId('agreement-kind'))[2] as HTMLElement;
    await user.click(within(risk).getByTestId('agreement-new-draft'));
    expect(api.callsTo('agreements/version')[0]?.query).toMatchObject({ kind: 'risk', version: '1' });
    const title = await screen.findByTestId('agreement-title-en');
    expect(title).toHaveValue('Risk Disclosure');
    await fill(user, title, 'Risk Disclosure 2027');
    await fill(user, screen.getByTestId('agreement-summary-en'), 'Adds loans');
    await user.click(within(screen.getByTestId('agreement-mode-en')).getByText('Preview'));
    const preview = screen.getByTestId('agreement-preview');
    expect(within(preview).getByRole('heading', { name: 'Prices' })).toBeInTheDocument();
    expect(preview).toHaveTextContent('Prices move. <b>bold</b>');
    expect(preview.querySelector('b')).toBeNull();
    await user.click(screen.getByTestId('agreement-save'));
    await waitFor(() => expect(api.callsTo('agreements/draft')).toHaveLength(1));
    expect(api.callsTo('agreements/draft')[0]?.body).toMatchObject({
      kind: 'risk',
      title_en: 'Risk Disclosure 2027',
      summary_en: 'Adds loans',
      title_zh: '风险披露',
      body_ft: '## 價格\n\n價格會波動。',
    });
    expect(await screen.findByTestId('agreement-done')).toHaveTextContent('Draft saved.');
  });

  it('publishes a draft with an effective date and a reason', async () => {
    const api = setUp();
    const { user } = await renderAdmin(<AgreementsScreen />, { route: '/agreements' });
    await user.click(await screen.findByTestId('agreement-publish'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Publish version 3');
    expect(within(dialog).getByTestId('agreement-effective')).not.toHaveValue('');
    await fill(user, within(dialog).getByTestId('reason-input'), 'Yearly review');
    await user.click(within(dialog).getByTestId('reason-confirm'));
    await waitFor(() => expect(api.callsTo('agreements/publish')).toHaveLength(1));
    const body = api.callsTo('agreements/publish')[0]?.body;
    expect(body).toMatchObject({ kind: 'user', version: '3', reason: 'Yearly review' });
    expect(typeof body?.effective_at).toBe('number');
  });

  it.each(['zh', 'ft'] as const)('speaks %s with no missing key', async (lang) => {
    setUp();
    watch = watchMissingKeys();
    const { user } = await renderAdmin(<AgreementsScreen />, { route: '/agreements', lang });
    expect(await screen.findByText(catalogs[lang].adminAgreements.title)).toBeInTheDocument();
    const kinds = await screen.findAllByTestId('agreement-kind');
    await user.click(within(kinds[2] as HTMLElement).getByTestId('agreement-new-draft'));
    await screen.findByTestId('agreement-title-en');
    expect(screen.getByText(catalogs[lang].adminAgreements.form.langs.ft)).toBeInTheDocument();
    expect(watch.missing).toEqual([]);
  });
});
