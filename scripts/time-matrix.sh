#!/usr/bin/env bash
# Time is an input: runs the time-sensitive server suites with their test clocks started at several
# instants (BOURSE_TEST_NOW, read by apps/server/test/harness.ts testNow) and under several machine
# time zones (TZ). The system clock is never faked: the server reads only its injected clock, so a
# suite that passes here does not depend on the day, the hour, trading hours or the machine's zone.
#
#   scripts/time-matrix.sh            every instant below, each once (its zone rotating), plus UTC
#   DATABASE_URL=postgres://…         the machine's PostgreSQL (else the suites start an embedded one)
#
# The last line is `N passed, N failed` (vitest JSON reports added up); exits non-zero on a failure.
set -uo pipefail
cd "$(dirname "$0")/.."
out=.tmp/time-matrix
mkdir -p "$out"

# The suites whose behaviour depends on time. FOLLOW start at BOURSE_TEST_NOW and run at every
# instant: trading hours and their staff call, the schedule and the feed's quiet markets, options
# expiry and settlement, sessions, codes and demo expiry. PINNED tell their story at fixed instants
# (startTestApp(…, { now }) or clock.set: a Saturday, the withdrawal window 12:00–24:00 Hong Kong and
# its daily count, contract funding): they vary by TZ only, so they run in the `all` rows.
# contracts.test.ts (delivery; ~40 s, a month's clock jump) is pinned and left out for time.
FOLLOW=(
  apps/server/src/modules/market/schedule.test.ts
  apps/server/src/modules/market/sim.test.ts
  apps/server/src/modules/market/hours.test.ts
  apps/server/src/modules/options/options.test.ts
  apps/server/src/modules/accounts/accounts.test.ts
)
PINNED=(
  apps/server/src/modules/market/market.test.ts
  apps/server/src/modules/withdrawals/withdrawals.test.ts
  apps/server/src/modules/contracts/gaps.test.ts
)

# instant|zone|suites — a Saturday; Monday 03:00 in Hong Kong; Friday 23:59:59 in Hong Kong; the New
# York daylight-saving changes (autumn back, spring forward); Monday 03:00 Hong Kong again in UTC.
RUNS=(
  '2026-11-21T04:00:00Z|Asia/Hong_Kong|follow'
  '2026-11-22T19:00:00Z|America/New_York|all'
  '2026-11-27T15:59:59Z|Asia/Kolkata|all'
  '2026-11-01T06:00:00Z|Asia/Hong_Kong|follow'
  '2026-03-08T07:00:00Z|America/New_York|follow'
  '2026-11-22T19:00:00Z|UTC|follow'
)

passed=0
failed=0
for run in "${RUNS[@]}"; do
  IFS='|' read -r instant zone which <<<"$run"
  suites=("${FOLLOW[@]}")
  [ "$which" = all ] && suites+=("${PINNED[@]}")
  report="$out/${instant//:/}-${zone//\//_}.json"
  printf '\n==> BOURSE_TEST_NOW=%s TZ=%s\n' "$instant" "$zone"
  rm -f "$report"
  BOURSE_TEST_NOW=$instant TZ=$zone npx vitest run "${suites[@]}" \
    --reporter=dot --reporter=json --outputFile="$report"
  counts=$(node -e '
    const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    const broken = r.testResults.filter((f) => f.status === "failed" && f.assertionResults.length === 0).length;
    console.log(r.numPassedTests, r.numFailedTests + broken);
  ' "$report" 2>/dev/null) || counts="0 1"
  read -r p f <<<"$counts"
  echo "$instant $zone: $p passed, $f failed"
  passed=$((passed + p))
  failed=$((failed + f))
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
