/**
 * What other modules (wiring, the back office) may use from content: the service with
 * `createArticle`, `updateArticle`, `publish` and `unpublish` (each takes the caller's transaction
 * for the audit record), the staff calls, its input types, the routes and the migrations.
 */
export { type ContentAdmin, createContentAdmin } from './admin.ts';
export { contentAdminRoutes } from './admin-routes.ts';
export { renderMarkdown } from './markdown.ts';
export { contentMigrations } from './migrations.ts';
export { contentRoutes } from './routes.ts';
export { type Content, type ContentInput, type ContentPatch, contentData, createContent } from './service.ts';
export type { ContentTables } from './tables.ts';
