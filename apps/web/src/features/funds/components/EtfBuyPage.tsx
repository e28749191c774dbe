import type { FundModelId } from '@bourse/protocol';
import { Button, Grid, Loader, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useToken } from '../../../lib/session.ts';
import { type NavRange, useEtfInfo } from '../api/getEtfInfo.ts';
import { BuyForm } from './BuyForm.tsx';
import { EligibilityNotice } from './Eligibility.tsx';
import { ModelPanel } from './ModelPanel.tsx';

const MODELS: readonly FundModelId[] = ['balanced', 'low_risk'];

/** /etflow_buy: choose a model portfolio, read it, see whether you may buy, preview the trades and buy. */
export function EtfBuyPage() {
  const { t } = useTranslation('funds');
  const token = useToken();
  const [params, setParams] = useSearchParams();
  const modelId: FundModelId = params.get('model') === 'low_risk' ? 'low_risk' : 'balanced';
  const [range, setRange] = useState<NavRange>('week');
  const info = useEtfInfo(modelId, range);
  const data = info.data;
  return (
    <Stack gap="md" py={{ base: 'md', sm: 'xl' }} data-testid="etf-buy-page">
      <Stack gap={4}>
        <Title order={1} fz={{ base: 22, sm: 28 }}>
          {t('buy.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('buy.lead')}
        </Text>
      </Stack>
      <SegmentedControl
        value={modelId}
        onChange={(v) => setParams({ model: v }, { replace: true })}
        data={MODELS.map((m) => ({ value: m, label: t(`model.${m}`) }))}
        data-testid="etf-model-choice"
        w={{ base: '100%', sm: 360 }}
      />
      {data?.eligibility && !data.eligibility.eligible ? (
        <EligibilityNotice eligibility={data.eligibility} />
      ) : null}
      {!data ? (
        <Loader />
      ) : (
        <Grid gap="md">
          <Grid.Col span={{ base: 12, md: 7 }}>
            <ModelPanel model={data.model} history={data.nav_history} range={range} onRange={setRange} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 5 }}>
            <Stack gap="md">
              {!token ? (
                <Button component={Link} to="/login" data-testid="etf-login">
                  {t('buy.login')}
                </Button>
              ) : data.eligibility?.eligible ? (
                <BuyForm key={data.model.model_id} model={data.model} eligibility={data.eligibility} />
              ) : null}
            </Stack>
          </Grid.Col>
        </Grid>
      )}
    </Stack>
  );
}
