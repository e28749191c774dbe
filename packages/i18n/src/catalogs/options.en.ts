/** The `options` namespace (up/down options and their records), English: the source of its keys. */
export const optionsEn = {
  title: 'Options',
};
