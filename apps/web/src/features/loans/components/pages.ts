/** The loan screens the route table loads (consumer credit, issue 18). */
export { ApplyPage } from './ApplyPage.tsx';
export { LoanPage } from './LoanPage.tsx';
export { LoansPage } from './LoansPage.tsx';
export { ScorePage } from './ScorePage.tsx';
