/** The C2C screens the route table loads (buying and selling coins by bank transfer, issue 19). */
export { AccountsPage } from './AccountsPage.tsx';
export { CreatePage } from './CreatePage.tsx';
export { OffersPage } from './OffersPage.tsx';
export { OrderPage } from './OrderPage.tsx';
export { OrdersPage } from './OrdersPage.tsx';
export { RulesPage } from './RulesPage.tsx';
