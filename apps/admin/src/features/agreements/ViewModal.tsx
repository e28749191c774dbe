import { type AgreementKind, LANGS } from '@bourse/protocol';
import { Group, Loader, Modal, Paper, Stack, Tabs, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ErrorNote } from '../../app/ui.tsx';
import { useAgreementVersion } from './api.ts';
import { Preview } from './Preview.tsx';

/** One version read-only, in each language as customers see it. */
export function ViewModal(props: { kind: AgreementKind; version: number; onClose: () => void }) {
  const { t } = useTranslation('adminAgreements');
  const version = useAgreementVersion({ kind: props.kind, version: props.version });
  const data = version.data;
  return (
    <Modal
      opened
      onClose={props.onClose}
      title={`${t(`kinds.${props.kind}`)} · ${t('view.title', { version: props.version })}`}
      size="xl"
      centered
    >
      <ErrorNote error={version.error} />
      {data ? (
        <Tabs defaultValue="en" data-testid="agreement-view">
          <Tabs.List>
            {LANGS.map((lang) => (
              <Tabs.Tab key={lang} value={lang}>
                {t(`form.langs.${lang}`)}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {LANGS.map((lang) => (
            <Tabs.Panel key={lang} value={lang} pt="sm">
              <Stack gap="sm">
                {data[`summary_${lang}`] ? (
                  <Paper withBorder p="sm">
                    <Text size="sm" fw={600}>
                      {t('view.summary')}
                    </Text>
                    <Text size="sm">{data[`summary_${lang}`]}</Text>
                  </Paper>
                ) : null}
                <Preview title={data[`title_${lang}`]} body={data[`body_${lang}`]} />
              </Stack>
            </Tabs.Panel>
          ))}
        </Tabs>
      ) : version.isPending ? (
        <Group justify="center" py="lg">
          <Loader size="sm" aria-label={t('loading')} />
        </Group>
      ) : null}
    </Modal>
  );
}
