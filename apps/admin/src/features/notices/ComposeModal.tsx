import type { Lang } from '@bourse/protocol';
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
import { type AnnouncementTexts, useCreateAnnouncement } from './api.ts';

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

/** Compose a draft in three languages, each with a preview as the customer will read it. */
export function ComposeModal(props: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation('adminNotice');
  const [texts, setTexts] = useState<AnnouncementTexts>(EMPTY);
  const [tried, setTried] = useState(false);
  const create = useCreateAnnouncement();
  const set = (key: keyof AnnouncementTexts, value: string) => setTexts((old) => ({ ...old, [key]: value }));
  const close = () => {
    setTexts(EMPTY);
    setTried(false);
    create.reset();
    props.onClose();
  };
  const save = () => {
    setTried(true);
    if (!complete(texts)) return;
    create.mutate({ ...texts, link: texts.link?.trim() || undefined }, { onSuccess: close });
  };
  return (
    <Modal opened={props.opened} onClose={close} title={t('create')} size="xl" centered>
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
        {tried && !complete(texts) ? (
          <Alert color="red" variant="light" data-testid="notice-incomplete">
            {t('form.allRequired')}
          </Alert>
        ) : null}
        <ErrorNote error={create.error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {t('form.cancel')}
          </Button>
          <Button onClick={save} loading={create.isPending} data-testid="notice-save">
            {t('form.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
