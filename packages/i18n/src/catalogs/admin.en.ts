/** The `admin` namespace, English: the source of its keys. */
export const adminEn = {
  title: 'Back office',
};
