#!/usr/bin/env bash
# The end-to-end tests in two parts side by side, each on its own server: the files that change
# shared state (trading hours, jurisdiction, withdrawal rules, derivatives settings; listed in
# e2e/vitest.config.ts) one after another on one server, every other file on another. Needs
# `npm run build` first. The last line is `N passed, N failed` (both parts' vitest JSON reports).
#
#   scripts/e2e.sh            both parts side by side
#   scripts/e2e.sh shared     one part (shared | rest)
set -uo pipefail
cd "$(dirname "$0")/.."
out=.tmp/e2e
mkdir -p "$out"
parts=("$@")
[ $# -eq 0 ] && parts=(shared rest)

pids=()
for part in "${parts[@]}"; do
  rm -f "$out/$part.json"
  E2E_PART=$part npx vitest run --config e2e/vitest.config.ts \
    --reporter=default --reporter=json --outputFile="$out/$part.json" >"$out/$part.log" 2>&1 &
  pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid"; done

passed=0
failed=0
for part in "${parts[@]}"; do
  printf '\n==> end-to-end, part "%s"\n' "$part"
  cat "$out/$part.log"
  counts=$(node -e '
    const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    const broken = r.testResults.filter((f) => f.status === "failed" && f.assertionResults.length === 0).length;
    // A run that ran no test at all (its global setup failed, or no file matched) is one failure, not a pass.
    const none = r.numPassedTests + r.numFailedTests + broken === 0 ? 1 : 0;
    console.log(r.numPassedTests, r.numFailedTests + broken + none);
  ' "$out/$part.json" 2>/dev/null) || counts="0 1"
  read -r p f <<<"$counts"
  echo "end-to-end ($part): $p passed, $f failed"
  passed=$((passed + p)); failed=$((failed + f))
done
echo
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
