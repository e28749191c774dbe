import {
  Badge,
  Button,
  Group,
  NumberInput,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/api.ts';
import { ErrorNote } from '../../app/ui.tsx';

type Channel = {
  currency: string;
  chain: string;
  kind: 'crypto' | 'bank';
  open: boolean;
  min_amount: string;
  confirmations: number;
};

function Row({ channel }: { channel: Channel }) {
  const { t } = useTranslation('assets');
  const client = useQueryClient();
  const [open, setOpen] = useState(channel.open);
  const [min, setMin] = useState(channel.min_amount);
  const [conf, setConf] = useState<number | string>(channel.confirmations);
  const save = useMutation({
    mutationFn: () =>
      api.post<Channel>('deposits/channels/update', {
        currency: channel.currency,
        chain: channel.chain,
        open: open ? '1' : '0',
        min_amount: min.trim(),
        confirmations: String(conf),
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['deposits/channels'] }),
  });
  return (
    <Table.Tr>
      <Table.Td fw={600}>
        {channel.currency} · {channel.chain}
      </Table.Td>
      <Table.Td>
        <Switch
          checked={open}
          onChange={(e) => setOpen(e.currentTarget.checked)}
          label={open ? t('admin.open') : t('admin.closed')}
        />
      </Table.Td>
      <Table.Td>
        <TextInput
          value={min}
          onChange={(e) => setMin(e.currentTarget.value)}
          w={140}
          aria-label={t('admin.minimum')}
        />
      </Table.Td>
      <Table.Td>
        {channel.kind === 'crypto' ? (
          <NumberInput
            value={conf}
            onChange={setConf}
            min={0}
            max={10000}
            allowDecimal={false}
            w={100}
            aria-label={t('admin.confirmations')}
          />
        ) : (
          <Text c="dimmed">—</Text>
        )}
      </Table.Td>
      <Table.Td>
        <Group gap="xs">
          <Button size="xs" loading={save.isPending} onClick={() => save.mutate()}>
            {t('admin.save')}
          </Button>
          {save.isSuccess ? <Badge color="green">{t('admin.saved')}</Badge> : null}
        </Group>
        <ErrorNote error={save.error} />
      </Table.Td>
    </Table.Tr>
  );
}

/** Deposit channels as operator data: open/close, minimum, confirmations (each change audited). */
export default function ChannelsScreen() {
  const { t } = useTranslation('assets');
  const channels = useQuery({
    queryKey: ['deposits/channels'],
    queryFn: () => api.get<Channel[]>('deposits/channels'),
  });
  return (
    <Stack data-testid="deposit-channels-screen">
      <Title order={2}>{t('admin.channels')}</Title>
      <ErrorNote error={channels.error} />
      <Table.ScrollContainer minWidth={800}>
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('admin.chain')}</Table.Th>
              <Table.Th>{t('admin.state')}</Table.Th>
              <Table.Th>{t('admin.minimum')}</Table.Th>
              <Table.Th>{t('admin.confirmations')}</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(channels.data ?? []).map((c) => (
              <Row
                key={`${c.currency}:${c.chain}:${c.open}:${c.min_amount}:${c.confirmations}`}
                channel={c}
              />
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}
