import { Alert, Anchor, Button, Group, List, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDate } from '../../../lib/format.ts';
import { useLang } from '../../../lib/i18n.ts';
import { useAcceptAgreement, useAgreementStatus } from '../api/agreements.ts';

const DISMISSED_KEY = 'bourse.agreements.later';

function dismissedNow(): string | null {
  try {
    return sessionStorage.getItem(DISMISSED_KEY);
  } catch {
    // Storage blocked (private mode): the notice simply shows again.
    return null;
  }
}

/**
 * The app shell's notice when a signed-in customer has versions in force they have not accepted:
 * the change summary of each, a link to read it and one button that accepts them all. It never
 * blocks the screen; "Later" hides it for this browser session (it returns for a newer version).
 */
export function AgreementNotice() {
  const { t } = useTranslation('agreements');
  const lang = useLang();
  const status = useAgreementStatus();
  const accept = useAcceptAgreement();
  const [failed, setFailed] = useState(false);
  const [later, setLater] = useState(dismissedNow);
  const pending = status.data?.pending ?? [];
  const signature = pending.map((p) => `${p.kind}:${p.version}`).join(',');
  if (pending.length === 0 || later === signature) return null;

  async function acceptAll() {
    setFailed(false);
    try {
      for (const item of pending) await accept.mutateAsync({ kind: item.kind, version: item.version });
    } catch {
      setFailed(true);
    }
  }

  function postpone() {
    try {
      sessionStorage.setItem(DISMISSED_KEY, signature);
    } catch {
      // Not kept across reloads then; hidden for now all the same.
    }
    setLater(signature);
  }

  return (
    <Alert color="blue" variant="light" my="sm" title={t('notice.title')} data-testid="agreement-notice">
      <Stack gap="xs">
        <Text size="sm">{t('notice.lead')}</Text>
        <List spacing={6} size="sm">
          {pending.map((item) => (
            <List.Item key={item.kind} data-testid="agreement-notice-item" data-kind={item.kind}>
              <Text size="sm" fw={600}>
                {t('notice.item', {
                  title: item.title,
                  version: item.version,
                  date: formatDate(item.effective_at, lang),
                })}
              </Text>
              {item.summary ? <Text size="sm">{item.summary}</Text> : null}
              <Anchor component={Link} to={`/userAgreement?kind=${item.kind}`} size="sm">
                {t('notice.read')}
              </Anchor>
            </List.Item>
          ))}
        </List>
        {failed ? (
          <Text size="sm" c="red" data-testid="agreement-notice-failed">
            {t('notice.failed')}
          </Text>
        ) : null}
        <Group gap="sm">
          <Button
            size="xs"
            onClick={() => void acceptAll()}
            loading={accept.isPending}
            data-testid="agreement-accept"
          >
            {t('notice.accept')}
          </Button>
          <Button size="xs" variant="subtle" onClick={postpone} data-testid="agreement-later">
            {t('notice.later')}
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}
