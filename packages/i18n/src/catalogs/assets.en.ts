/** The `assets` namespace, English: the source of its keys. */
export const assetsEn = {
  title: 'Assets',
};
