// The one place every contract and option risk number is computed (see README.md). Filled in by issue 6.
export {};
