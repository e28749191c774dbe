export async function runCrash(_o: { cycles: number; keep: boolean }): Promise<number> {
  return 1;
}
