/** The earn screens the route table loads (fixed-term custody and VIP products). */
export { BuyPage } from './BuyPage.tsx';
export { CustodyOrdersPage, VipOrdersPage } from './OrdersPage.tsx';
export { CustodyIndexPage, VipIndexPage } from './ProductsPage.tsx';
