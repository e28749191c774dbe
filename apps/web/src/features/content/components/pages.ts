/** The content screens the route table loads (app/routes.tsx). */
export { BenefitDetailPage, HelpDetailPage, NewsDetailPage } from './ArticleDetail.tsx';
export { AboutPage, BenefitsPage, NewsFlashPage, SecurityPage, TextPage } from './EntryPages.tsx';
export { HelpPage } from './HelpPage.tsx';
