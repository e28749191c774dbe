import { GetArticleQuery, GetBannersQuery, GetTextsListQuery } from '@bourse/protocol';
import type { FastifyInstance } from 'fastify';
import { langOf, ok } from '../../http/envelope.ts';
import type { Content } from './service.ts';

/** The public content calls (docs/api.md): published entries only, in the request's language. */
export function contentRoutes(content: Content) {
  return async (app: FastifyInstance) => {
    const tags = ['content'];

    app.get(
      '/getBanners',
      { schema: { tags, summary: 'Published home banners, in order', querystring: GetBannersQuery } },
      async (request) => ok(request, await content.banners(langOf(request))),
    );

    app.get(
      '/getTextsList',
      {
        schema: {
          tags,
          summary: 'Published articles (news, announcements), newest first, paged',
          querystring: GetTextsListQuery,
        },
      },
      async (request) => {
        const query = request.query as GetTextsListQuery;
        return ok(request, await content.articles({ ...query, lang: langOf(request) }));
      },
    );

    app.get(
      '/getArticle',
      { schema: { tags, summary: 'One published entry (article or banner)', querystring: GetArticleQuery } },
      async (request) => {
        const query = request.query as GetArticleQuery;
        return ok(request, await content.article({ lang: langOf(request), id: query.id }));
      },
    );
  };
}
