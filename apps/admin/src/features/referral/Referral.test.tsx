// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { watchMissingKeys } from '../../test/i18n.ts';
import { fill, renderAdmin } from '../../test/render.tsx';
import ReferralScreen from './ReferralScreen.tsx';
import { referralApi } from './testing.ts';

let watch: ReturnType<typeof watchMissingKeys> | null = null;
afterEach(() => {
  watch?.stop();
  watch = null;
});

describe('the referral programme', () => {
  it('settings: the profile maximum, a share per level, the 1 USDT preview, saved with a reason', async () => {
    const api = referralApi();
    const { user } = await renderAdmin(<ReferralScreen />);
    expect(await screen.findByTestId('referral-profile-max')).toHaveTextContent('at most 4 levels');
    expect(screen.getByTestId('referral-preview')).toHaveTextContent('Level 1: 0.2 USDT');
    await user.click(within(screen.getByTestId('referral-depth')).getByText('2'));
    await waitFor(() => expect(screen.getAllByTestId('referral-share')).toHaveLength(2));
    await fill(user, screen.getAllByTestId('referral-share')[1] as HTMLElement, '12.5');
    await waitFor(() => expect(screen.getAllByTestId('referral-preview-line')).toHaveLength(2));
    expect(screen.getByTestId('referral-preview')).toHaveTextContent('Level 2: 0.125 USDT');
    expect(screen.getByTestId('referral-shares-total')).toHaveTextContent('32.5 %');
    expect(screen.getByTestId('referral-save')).toBeDisabled();
    await fill(user, screen.getByTestId('referral-reason'), 'second level for the launch');
    await user.click(screen.getByTestId('referral-save'));
    await waitFor(() =>
      expect(api.callsTo('referral/settings').filter((c) => c.method === 'POST')).toHaveLength(1),
    );
    expect(api.callsTo('referral/settings').find((c) => c.method === 'POST')?.body).toMatchObject({
      enabled: '1',
      depth: '2',
      shares_bps: '2000,1250',
      reason: 'second level for the launch',
    });
    expect(await screen.findByTestId('referral-saved')).toHaveTextContent('Programme saved');
  });

  it('shares over 100 % cannot be saved', async () => {
    referralApi();
    const { user } = await renderAdmin(<ReferralScreen />);
    await user.click(within(await screen.findByTestId('referral-depth')).getByText('2'));
    await waitFor(() => expect(screen.getAllByTestId('referral-share')).toHaveLength(2));
    await fill(user, screen.getAllByTestId('referral-share')[1] as HTMLElement, '90');
    await fill(user, screen.getByTestId('referral-reason'), 'too much');
    expect(screen.getByTestId('referral-shares-total')).toHaveTextContent('110 %');
    expect(screen.getByTestId('referral-save')).toBeDisabled();
    expect(screen.getByTestId('referral-preview')).toHaveTextContent('Nothing');
  });

  it('income lines link the trade and both entries; a filter by inviter is sent', async () => {
    const api = referralApi();
    const { user } = await renderAdmin(<ReferralScreen />);
    await user.click(await screen.findByTestId('referral-tab-income'));
    const rows = await screen.findAllByTestId('referral-income-row');
    expect(rows[0]).toHaveTextContent('stt_1');
    expect(rows[0]).toHaveTextContent('len_fee1');
    expect(rows[0]).toHaveTextContent('len_inc1');
    expect(rows[1]).toHaveTextContent('Same device');
    await fill(user, screen.getByTestId('referral-filter-inviter'), '100001');
    await user.click(screen.getByTestId('referral-filter-apply'));
    await waitFor(() =>
      expect(api.callsTo('referral/income').at(-1)?.query).toMatchObject({ inviter: '100001' }),
    );
  });

  it('a flag is cleared with a reason', async () => {
    const api = referralApi();
    const { user } = await renderAdmin(<ReferralScreen />);
    await user.click(await screen.findByTestId('referral-tab-flags'));
    const row = await screen.findByTestId('referral-flag-row');
    expect(row).toHaveTextContent('Same device');
    expect(row).toHaveTextContent('Mozilla/5.0 (iPhone)');
    await user.click(within(row).getByTestId('referral-flag-clear'));
    await fill(user, await screen.findByTestId('reason-input'), 'siblings, checked documents');
    await user.click(screen.getByTestId('reason-confirm'));
    await waitFor(() => expect(api.callsTo('referral/flags/rff_1/clear')).toHaveLength(1));
    expect(api.callsTo('referral/flags/rff_1/clear')[0]?.body).toMatchObject({
      reason: 'siblings, checked documents',
    });
  });

  it('read-only staff see no save and no clear; totals in zh and ft have every key', async () => {
    referralApi(['referral.read']);
    const { user } = await renderAdmin(<ReferralScreen />);
    expect(await screen.findByTestId('referral-settings')).toHaveTextContent('referral.write');
    expect(screen.queryByTestId('referral-save')).toBeNull();
    await user.click(screen.getByTestId('referral-tab-flags'));
    await screen.findByTestId('referral-flag-row');
    expect(screen.queryByTestId('referral-flag-clear')).toBeNull();
  });

  for (const lang of ['zh', 'ft'] as const) {
    it(`every tab in ${lang} has every key`, async () => {
      referralApi();
      watch = watchMissingKeys();
      const { user } = await renderAdmin(<ReferralScreen />, { lang });
      await screen.findByTestId('referral-preview');
      for (const tab of ['income', 'flags', 'totals']) {
        await user.click(screen.getByTestId(`referral-tab-${tab}`));
        await screen.findAllByTestId(
          `referral-${tab === 'income' ? 'income-row' : tab === 'flags' ? 'flag-row' : 'totals-paid'}`,
        );
      }
      expect(screen.getByTestId('referral-totals-paid')).toHaveTextContent('31');
      expect(watch.missing).toEqual([]);
    });
  }
});
