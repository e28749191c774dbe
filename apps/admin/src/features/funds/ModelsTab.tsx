import { bpsPercentText } from '@bourse/money';
import type { AdminFundModelData } from '@bourse/protocol';
import { Badge, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { hasPermission, useStaffMe } from '../../app/session.ts';
import { ErrorNote, ReasonDialog, useAmountText } from '../../app/ui.tsx';
import { KEYS, setModelState, useModels } from './api.ts';

function ModelCard({ model, onToggle }: { model: AdminFundModelData; onToggle: (() => void) | null }) {
  const { t } = useTranslation('adminFunds');
  const { t: tc } = useTranslation('common');
  const amount = useAmountText();
  return (
    <Card withBorder radius="md" p="md" data-testid="funds-model" data-model={model.model_id}>
      <Stack gap={6}>
        <Group justify="space-between">
          <Title order={3} fz="lg">
            {model.name}
          </Title>
          <Badge color={model.state === 'open' ? 'green' : 'yellow'} data-testid="funds-model-state">
            {t(`model.states.${model.state}`)}
          </Badge>
        </Group>
        <Text size="sm">
          {t('model.weights')}:{' '}
          {model.weights.map((w) => `${w.asset} ${bpsPercentText(w.weight_bps)}%`).join(' · ')}
        </Text>
        <Text size="sm">
          {t('model.drift')}: {t('model.points', { points: bpsPercentText(model.drift_bps) })}
        </Text>
        <Text size="sm">
          {t('model.limits')}: {amount(model.min_amount, 'USDT')} – {amount(model.max_amount, 'USDT')}
        </Text>
        <Text size="sm">
          {t('model.rating')}: {tc(`label.rating.${model.min_rating}` as never) as string}
        </Text>
        <Text size="sm">
          {t('model.nav')}: {model.nav}
        </Text>
        <Text size="sm">
          {t('model.custody')}:{' '}
          {t('model.custodyValue', { count: model.orders_in_custody, value: amount(model.value_in_custody) })}
        </Text>
        {model.state_reason ? (
          <Text size="xs" c="dimmed">
            {t('model.reason', { reason: model.state_reason })}
          </Text>
        ) : null}
        {onToggle ? (
          <Group>
            <Button
              size="xs"
              variant="light"
              color={model.state === 'open' ? 'orange' : 'green'}
              onClick={onToggle}
              data-testid="funds-model-toggle"
            >
              {model.state === 'open' ? t('model.pause') : t('model.open')}
            </Button>
          </Group>
        ) : null}
      </Stack>
    </Card>
  );
}

/** Both models with their rules, NAV and orders in custody; open or pause with a reason. */
export function ModelsTab() {
  const { t } = useTranslation('adminFunds');
  const models = useModels();
  const client = useQueryClient();
  const [target, setTarget] = useState<AdminFundModelData | null>(null);
  const me = useStaffMe();
  const mayWrite = hasPermission(me.data, 'funds.write');
  const pausing = target?.state === 'open';
  return (
    <Stack>
      <ErrorNote error={models.error} />
      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        {(models.data ?? []).map((m) => (
          <ModelCard key={m.model_id} model={m} onToggle={mayWrite ? () => setTarget(m) : null} />
        ))}
      </SimpleGrid>
      <ReasonDialog
        opened={target !== null}
        title={target ? t(pausing ? 'model.pauseTitle' : 'model.openTitle', { name: target.name }) : ''}
        text={pausing ? t('model.pauseText') : t('model.openText')}
        confirmLabel={pausing ? t('model.pause') : t('model.open')}
        danger={pausing}
        onClose={() => setTarget(null)}
        onSubmit={async (reason) => {
          if (!target) return;
          await setModelState({ model_id: target.model_id, state: pausing ? 'paused' : 'open', reason });
          await client.invalidateQueries({ queryKey: KEYS.models });
        }}
      />
    </Stack>
  );
}
