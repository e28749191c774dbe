import type { AdminSupportCannedData } from '@bourse/protocol';
import { SUPPORT_LIMITS } from '@bourse/protocol';
import { Button, Group, Paper, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { hasPermission, useStaffMe } from '../../app/session.ts';
import { ErrorNote } from '../../app/ui.tsx';
import { type CannedInput, useCanned, useDeleteCanned, useSaveCanned } from './api.ts';

const EMPTY: CannedInput = { title: '', body_en: '', body_zh: '', body_ft: '' };

function CannedForm({
  initial,
  id,
  onDone,
}: {
  initial: CannedInput;
  id: string | null;
  onDone: () => void;
}) {
  const { t } = useTranslation('adminSupport');
  const save = useSaveCanned();
  const [form, setForm] = useState(initial);
  const field = (key: keyof CannedInput, label: string, area = true) => {
    const props = {
      label,
      value: form[key],
      maxLength: key === 'title' ? SUPPORT_LIMITS.cannedTitleMax : SUPPORT_LIMITS.messageMax,
      onChange: (e: { currentTarget: { value: string } }) =>
        setForm({ ...form, [key]: e.currentTarget.value }),
      'data-testid': `support-canned-${key}`,
    };
    return area ? <Textarea rows={2} {...props} /> : <TextInput {...props} />;
  };
  const ready = Object.values(form).every((v) => v.trim() !== '');
  return (
    <Paper withBorder p="sm" radius="md" data-testid="support-canned-form">
      <Stack gap="xs">
        {field('title', t('canned.name'), false)}
        {field('body_en', t('canned.bodyEn'))}
        {field('body_zh', t('canned.bodyZh'))}
        {field('body_ft', t('canned.bodyFt'))}
        <ErrorNote error={save.error} />
        <Group justify="flex-end">
          <Button variant="subtle" onClick={onDone}>
            {t('common.cancel')}
          </Button>
          <Button
            disabled={!ready}
            loading={save.isPending}
            onClick={() => save.mutate({ id, body: form }, { onSuccess: onDone })}
            data-testid="support-canned-save"
          >
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

function Row({ c, canWrite }: { c: AdminSupportCannedData; canWrite: boolean }) {
  const { t } = useTranslation('adminSupport');
  const remove = useDeleteCanned();
  const [editing, setEditing] = useState(false);
  if (editing) return <CannedForm initial={c} id={c.id} onDone={() => setEditing(false)} />;
  return (
    <Paper withBorder p="sm" radius="md" data-testid="support-canned-row" data-id={c.id}>
      <Group justify="space-between" align="flex-start">
        <Stack gap={2} style={{ flex: 1 }}>
          <Text fw={600}>{c.title}</Text>
          <Text size="sm">{c.body_en}</Text>
          <Text size="sm">{c.body_zh}</Text>
          <Text size="sm">{c.body_ft}</Text>
        </Stack>
        {canWrite ? (
          <Group gap="xs">
            <Button
              size="xs"
              variant="light"
              onClick={() => setEditing(true)}
              data-testid="support-canned-edit"
            >
              {t('canned.edit')}
            </Button>
            <Button
              size="xs"
              color="red"
              variant="subtle"
              loading={remove.isPending}
              onClick={() => remove.mutate(c.id)}
              data-testid="support-canned-delete"
            >
              {t('common.remove')}
            </Button>
          </Group>
        ) : null}
      </Group>
    </Paper>
  );
}

/** Canned replies, each in the three languages; the console inserts the customer's. */
export default function CannedScreen() {
  const { t } = useTranslation('adminSupport');
  const me = useStaffMe();
  const canWrite = hasPermission(me.data, 'support.write');
  const list = useCanned();
  const [adding, setAdding] = useState(false);
  return (
    <Stack gap="md" data-testid="support-canned">
      <Group justify="space-between">
        <Title order={2}>{t('canned.title')}</Title>
        {canWrite ? (
          <Button onClick={() => setAdding(true)} data-testid="support-canned-add">
            {t('canned.add')}
          </Button>
        ) : null}
      </Group>
      {adding ? <CannedForm initial={EMPTY} id={null} onDone={() => setAdding(false)} /> : null}
      <ErrorNote error={list.error} />
      {list.data?.length === 0 ? <Text c="dimmed">{t('common.empty')}</Text> : null}
      {list.data?.map((c) => (
        <Row key={c.id} c={c} canWrite={canWrite} />
      ))}
    </Stack>
  );
}
