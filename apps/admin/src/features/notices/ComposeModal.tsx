import type { AdminAnnouncementData, Lang } from '@bourse/protocol';
import {
  Alert,
  Button,
  Card,
  Group,
  Modal,
  Stack,
  Tabs,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorNote } from '../../app/ui.tsx';
import { type AnnouncementTexts, useCreateAnnouncement, useUpdateAnnouncement } from './api.ts';

const LANGS: readonly Lang[] = ['en', 'zh', 'ft'];
const EMPTY: AnnouncementTexts = {
  title_en: '',
  title_zh: '',
  title_ft: '',
  body_en: '',
  body_zh: '',
  body_ft: '',
};

/** Every language written (the server refuses a missing one by field too). */
export function complete(texts: AnnouncementTexts): boolean {
  return LANGS.every((l) => texts[`title_${l}`].trim() !== '' && texts[`body_${l}`].trim() !== '');
}

function textsOf(a: AdminAnnouncementData | null | undefined): AnnouncementTexts {
  if (!a) return EMPTY;
  return {
    title_en: a.title_en,
    title_zh: a.title_zh,
    title_ft: a.title_ft,
    body_en: a.body_en,
    body_zh: a.body_zh,
    body_ft: a.body_ft,
    ...(a.link ? { link: a.link } : {}),
  };
}

/**
 * Compose a draft in three languages, each with a preview as the customer will read it; with
 * `editing`, change a draft or a scheduled announcement (no customer has seen it yet) with a reason.
 */
export function ComposeModal(props: {
  opened: boolean;
  onClose: () => void;
  editing?: AdminAnnouncementData | null;
}) {
  const { t } = useTranslation('adminNotice');
  const [texts, setTexts] = useState<AnnouncementTexts>(() => textsOf(props.editing));
  const [reason, setReason] = useState('');
  const [tried, setTried] = useState(false);
  const create = useCreateAnnouncement();
  const update = useUpdateAnnouncement();
  const editing = props.editing ?? null;
  const set = (key: keyof AnnouncementTexts, value: string) => setTexts((old) => ({ ...old, [key]: value }));
  const close = () => {
    setTexts(EMPTY);
    setReason('');
    setTried(false);
    create.reset();
    update.reset();
    props.onClose();
  };
  const save = () => {
    setTried(true);
    if (!complete(texts)) return;
    const clean = { ...texts, link: texts.link?.trim() || undefined };
    if (!editing) return create.mutate(clean, { onSuccess: close });
    if (reason.trim() === '') return;
    update.mutate({ id: editing.id, texts: clean, reason: reason.trim() }, { onSuccess: close });
  };
  return (
    <Modal
      opened={props.opened}
      onClose={close}
      title={editing ? t('edit.title') : t('create')}
      size="xl"
      centered
    >
      <Stack data-testid="notice-compose">
        <Tabs defaultValue="en">
          <Tabs.List>
            {LANGS.map((l) => (
              <Tabs.Tab key={l} value={l} data-testid={`notice-compose-tab-${l}`}>
                {t(`lang.${l}`)}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {LANGS.map((l) => (
            <Tabs.Panel key={l} value={l} pt="sm">
              <Stack gap="sm">
                <TextInput
                  label={t('form.title', { lang: t(`lang.${l}`) })}
                  value={texts[`title_${l}`]}
                  onChange={(e) => set(`title_${l}`, e.currentTarget.value)}
                  maxLength={120}
                  data-testid={`notice-title-${l}`}
                />
                <Textarea
                  label={t('form.body', { lang: t(`lang.${l}`) })}
                  value={texts[`body_${l}`]}
                  onChange={(e) => set(`body_${l}`, e.currentTarget.value)}
                  autosize
                  minRows={4}
                  maxLength={5000}
                  data-testid={`notice-body-${l}`}
                />
                <Card withBorder padding="sm" data-testid={`notice-preview-${l}`}>
                  <Text size="xs" c="dimmed">
                    {t('form.preview')}
                  </Text>
                  <Title order={5}>{texts[`title_${l}`]}</Title>
                  <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                    {texts[`body_${l}`]}
                  </Text>
                </Card>
              </Stack>
            </Tabs.Panel>
          ))}
        </Tabs>
        <TextInput
          label={t('form.link')}
          value={texts.link ?? ''}
          onChange={(e) => set('link', e.currentTarget.value)}
          maxLength={300}
          data-testid="notice-link"
        />
        {editing ? (
          <Text size="xs" c="dimmed">
            {t('edit.onlyUnseen')}
          </Text>
        ) : null}
        {editing ? (
          <TextInput
            label={t('edit.reason')}
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
            maxLength={500}
            error={tried && reason.trim() === '' ? t('edit.reasonRequired') : undefined}
            data-testid="notice-edit-reason"
          />
        ) : null}
        {tried && !complete(texts) ? (
          <Alert color="red" variant="light" data-testid="notice-incomplete">
            {t('form.allRequired')}
          </Alert>
        ) : null}
        <ErrorNote error={create.error ?? update.error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {t('form.cancel')}
          </Button>
          <Button onClick={save} loading={create.isPending || update.isPending} data-testid="notice-save">
            {editing ? t('edit.save') : t('form.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
