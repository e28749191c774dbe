import { Paper, Text, Typography } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { previewMarkdown } from './api.ts';

const DEBOUNCE_MS = 300;

/**
 * The live preview: the markdown rendered by the server through the same sanitizer customers get
 * (modules/content markdown.ts), so staff see exactly what will be published — never their raw HTML.
 */
export function Preview({ markdown }: { markdown: string }) {
  const { t } = useTranslation('adminContent');
  const [settled, setSettled] = useState(markdown);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(markdown), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [markdown]);
  const preview = useQuery({
    queryKey: ['content', 'preview', settled],
    queryFn: () => previewMarkdown(settled),
    enabled: settled.trim().length > 0,
    staleTime: Number.POSITIVE_INFINITY,
  });
  return (
    <Paper withBorder p="sm" radius="sm" mih={120} data-testid="content-preview">
      <Text size="xs" c="dimmed" mb={6}>
        {t('form.preview')}
      </Text>
      {settled.trim().length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('form.previewEmpty')}
        </Text>
      ) : preview.isError ? (
        <Text size="sm" c="red">
          {t('form.previewFailed')}
        </Text>
      ) : (
        <Typography>
          <div
            data-testid="content-preview-html"
            // biome-ignore lint/security/noDangerouslySetInnerHtml: rendered and sanitized by the server's allow-list (markdown.ts)
            dangerouslySetInnerHTML={{ __html: preview.data?.html ?? '' }}
          />
        </Typography>
      )}
    </Paper>
  );
}
