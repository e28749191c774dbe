/** The `proof` namespace, English: the source of its keys. */
export const proofEn = {
  title: 'Proof of liabilities',
};
