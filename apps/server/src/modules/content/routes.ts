import {
  GetArticleQuery,
  GetBannersQuery,
  GetHelpCategoriesQuery,
  GetTextsListQuery,
  SearchContentQuery,
} from '@bourse/protocol';
import type { FastifyInstance } from 'fastify';
import { langOf, ok } from '../../http/envelope.ts';
import type { Content } from './service.ts';

/** The public content calls (docs/api.md): visible entries only, in the request's language; open without login. */
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
          summary: 'Published entries of one kind (default: news and announcements), paged',
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

    app.get(
      '/getHelpCategories',
      {
        schema: {
          tags,
          summary: 'Help categories in order, with their article counts',
          querystring: GetHelpCategoriesQuery,
        },
      },
      async (request) => ok(request, await content.helpCategories(langOf(request))),
    );

    app.get(
      '/searchContent',
      {
        schema: {
          tags,
          summary: 'Published entries whose title, summary or body in the language contains q',
          querystring: SearchContentQuery,
        },
      },
      async (request) => {
        const query = request.query as SearchContentQuery;
        return ok(request, await content.search({ ...query, lang: langOf(request) }));
      },
    );
  };
}
