import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ApiError } from '../../../lib/api.ts';
import { useArticle } from '../api/content.ts';
import { Article, BackLink, ContentPage, Loadable } from './parts.tsx';

/** One article by `?id=` with a way back; an unknown, unpublished or missing id says so. */
export function ArticleDetail({ back }: { back: { to: string; label: string } }) {
  const { t } = useTranslation('content');
  const [params] = useSearchParams();
  const id = params.get('id');
  const article = useArticle(id);
  const backLink = <BackLink to={back.to} label={back.label} />;
  const notFound = (
    <ContentPage testId="content-article-page" title={t('state.notFound')} back={backLink}>
      <span data-testid="content-not-found" />
    </ContentPage>
  );
  if (id === null) return notFound;
  if (article.error instanceof ApiError && article.error.reason === 'NOT_FOUND') return notFound;
  return (
    <ContentPage testId="content-article-page" title={article.data?.title ?? ''} back={backLink}>
      <Loadable query={article}>
        {() => (article.data ? <Article item={article.data} showTitle={false} /> : null)}
      </Loadable>
    </ContentPage>
  );
}

/** /setting-newdetail?id=: a news flash article. */
export function NewsDetailPage() {
  const { t } = useTranslation('content');
  return <ArticleDetail back={{ to: '/settingNew', label: t('back.news') }} />;
}

/** /settingHelpdetail?id= and /helpDetail?id=: a help article. */
export function HelpDetailPage() {
  const { t } = useTranslation('content');
  return <ArticleDetail back={{ to: '/help', label: t('back.help') }} />;
}

/** /benefitsDetail?id=: one benefit with its conditions. */
export function BenefitDetailPage() {
  const { t } = useTranslation('content');
  return <ArticleDetail back={{ to: '/benefits', label: t('back.benefits') }} />;
}
