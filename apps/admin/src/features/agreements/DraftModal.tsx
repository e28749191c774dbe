import { type AgreementKind, LANGS, type Lang } from '@bourse/protocol';
import {
  Button,
  Group,
  Loader,
  Modal,
  SegmentedControl,
  Stack,
  Tabs,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorNote } from '../../app/ui.tsx';
import { type DraftTexts, saveDraft, useAgreementVersion } from './api.ts';
import { Preview } from './Preview.tsx';

const EMPTY: DraftTexts = {
  title_en: '',
  title_zh: '',
  title_ft: '',
  summary_en: '',
  summary_zh: '',
  summary_ft: '',
  body_en: '',
  body_zh: '',
  body_ft: '',
};

function textsOf(source: Partial<DraftTexts> | undefined): DraftTexts {
  const out = { ...EMPTY };
  for (const key of Object.keys(EMPTY) as Array<keyof DraftTexts>) out[key] = source?.[key] ?? '';
  return out;
}

function LangFields(props: {
  lang: Lang;
  texts: DraftTexts;
  onChange: (patch: Partial<DraftTexts>) => void;
}) {
  const { t } = useTranslation('adminAgreements');
  const [mode, setMode] = useState<'edit' | 'preview'>('edit');
  const { lang, texts } = props;
  const set = (field: 'title' | 'summary' | 'body', value: string) =>
    props.onChange({ [`${field}_${lang}`]: value } as Partial<DraftTexts>);
  return (
    <Stack gap="sm" pt="sm">
      <SegmentedControl
        size="xs"
        value={mode}
        onChange={(v) => setMode(v as 'edit' | 'preview')}
        data={[
          { value: 'edit', label: t('form.edit') },
          { value: 'preview', label: t('form.preview') },
        ]}
        data-testid={`agreement-mode-${lang}`}
      />
      {mode === 'preview' ? (
        <Preview title={texts[`title_${lang}`]} body={texts[`body_${lang}`]} />
      ) : (
        <>
          <TextInput
            label={t('form.titleLabel')}
            value={texts[`title_${lang}`]}
            maxLength={120}
            onChange={(e) => set('title', e.currentTarget.value)}
            data-testid={`agreement-title-${lang}`}
          />
          <Textarea
            label={t('form.summaryLabel')}
            value={texts[`summary_${lang}`]}
            maxLength={1000}
            autosize
            minRows={2}
            onChange={(e) => set('summary', e.currentTarget.value)}
            data-testid={`agreement-summary-${lang}`}
          />
          <Textarea
            label={t('form.bodyLabel')}
            description={t('form.bodyHint')}
            value={texts[`body_${lang}`]}
            maxLength={40_000}
            autosize
            minRows={8}
            maxRows={24}
            onChange={(e) => set('body', e.currentTarget.value)}
            data-testid={`agreement-body-${lang}`}
          />
        </>
      )}
    </Stack>
  );
}

/**
 * Writes the draft of a kind's next version in three languages, each with a preview. It starts from
 * the draft when there is one, else from the version in force (most changes are edits of it).
 */
export function DraftModal(props: {
  kind: AgreementKind;
  /** The version to start from (the draft, or the one in force), or null for a blank draft. */
  from: number | null;
  draftVersion: number | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation('adminAgreements');
  const source = useAgreementVersion(props.from === null ? null : { kind: props.kind, version: props.from });
  const [texts, setTexts] = useState<DraftTexts | null>(props.from === null ? { ...EMPTY } : null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (source.data && texts === null) setTexts(textsOf(source.data));
  }, [source.data, texts]);

  async function save() {
    if (!texts) return;
    setBusy(true);
    setError(null);
    try {
      await saveDraft(props.kind, texts);
      props.onSaved();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  }

  const title =
    props.draftVersion === null ? t('form.titleNew') : t('form.title', { version: props.draftVersion });
  return (
    <Modal opened onClose={props.onClose} title={`${t(`kinds.${props.kind}`)} · ${title}`} size="xl" centered>
      {texts === null ? (
        source.error ? (
          <ErrorNote error={source.error} />
        ) : (
          <Group justify="center" py="lg">
            <Loader size="sm" aria-label={t('loading')} />
          </Group>
        )
      ) : (
        <Stack data-testid="agreement-draft-form">
          <Tabs defaultValue="en">
            <Tabs.List>
              {LANGS.map((lang) => (
                <Tabs.Tab key={lang} value={lang} data-testid={`agreement-tab-${lang}`}>
                  {t(`form.langs.${lang}`)}
                </Tabs.Tab>
              ))}
            </Tabs.List>
            {LANGS.map((lang) => (
              <Tabs.Panel key={lang} value={lang}>
                <LangFields
                  lang={lang}
                  texts={texts}
                  onChange={(patch) => setTexts({ ...texts, ...patch })}
                />
              </Tabs.Panel>
            ))}
          </Tabs>
          <Text size="xs" c="dimmed">
            {t('form.required')}
          </Text>
          <ErrorNote error={error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={props.onClose}>
              {t('actions.cancel')}
            </Button>
            <Button loading={busy} onClick={() => void save()} data-testid="agreement-save">
              {t('actions.save')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
