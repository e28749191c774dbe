import { Typography } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';

/**
 * An article body: the HTML the server rendered from markdown and sanitized (modules/content
 * markdown.ts — allow-listed tags, no scripts, no event handlers, only app paths and http(s)/mailto
 * links). App paths inside it navigate in the app instead of reloading the page.
 */
export function Markdown({ html, testId = 'article-body' }: { html: string; testId?: string }) {
  const navigate = useNavigate();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const root = ref.current;
    if (!root) return;
    const onClick = (event: MouseEvent) => {
      const anchor = (event.target as Element | null)?.closest('a');
      const href = anchor?.getAttribute('href') ?? '';
      if (!href.startsWith('/') || href.startsWith('//') || event.metaKey || event.ctrlKey) return;
      event.preventDefault();
      void navigate(href);
    };
    root.addEventListener('click', onClick);
    return () => root.removeEventListener('click', onClick);
  }, [navigate]);
  return (
    <Typography>
      <div
        ref={ref}
        data-testid={testId}
        style={{ lineHeight: 1.7, overflowWrap: 'anywhere' }}
        // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized by the server's allow-list (modules/content markdown.ts)
        dangerouslySetInnerHTML={{ __html: html }}
      />
    </Typography>
  );
}
