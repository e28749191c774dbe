/** The launchpad screens the route table loads (new-coin subscription, issue 17). */
export { ProjectListPage } from './ProjectListPage.tsx';
export { ProjectPage } from './ProjectPage.tsx';
export { ProofPage } from './ProofPage.tsx';
export { RecordsPage } from './RecordsPage.tsx';
