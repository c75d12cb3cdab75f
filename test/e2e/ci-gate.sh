#!/bin/sh
# A CI health gate: fail the job when any site scores below MIN_SCORE.
#
#   SITEHEALTH_API_URL=https://health.example.com SITEHEALTH_API_KEY=... \
#     MIN_SCORE=80 ./ci-gate.sh https://staging.example.com https://www.example.com
#
# SITEHEALTH is the command to run (default `sitehealth`; the tests set `node bin/run.js`).
# The script's exit status is sitehealth's: 0 pass, 3 a score below MIN_SCORE, others see README.
set -u

SITEHEALTH=${SITEHEALTH:-sitehealth}
MIN_SCORE=${MIN_SCORE:-80}

# shellcheck disable=SC2086 # SITEHEALTH may be a command with arguments
$SITEHEALTH check --fail-under "$MIN_SCORE" "$@"
status=$?

case $status in
  0) echo "health gate: passed (every score >= $MIN_SCORE)" ;;
  3) echo "health gate: FAILED (a score is below $MIN_SCORE)" >&2 ;;
  4) echo "health gate: the API key was refused" >&2 ;;
  5) echo "health gate: out of credits" >&2 ;;
  *) echo "health gate: sitehealth exited $status" >&2 ;;
esac
exit $status
