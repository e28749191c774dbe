/** The `market` namespace, English: the source of its keys. */
export const marketEn = {
  title: 'Market',
};
