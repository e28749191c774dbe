/** The `contract` namespace (contract trading (/preciousMetal), its records), English: the source of its keys. */
export const contractEn = {
  title: 'Contracts',
};
