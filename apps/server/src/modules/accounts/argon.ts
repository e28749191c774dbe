/** OWASP's argon2id baseline: 19 MiB, 2 iterations, 1 lane (passwords and security answers). */
export const ARGON2 = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;
