/** The `withdraw` namespace, English: the source of its keys. */
export const withdrawEn = {
  title: 'Withdrawals',
};
