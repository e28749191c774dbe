/** A catalog in another language must have exactly the English catalog's keys. */
export type Shape<T> = { readonly [K in keyof T]: T[K] extends string ? string : Shape<T[K]> };
export type Tree = { readonly [key: string]: string | Tree };
