#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# flagship-readme.sh REPORT README - copy the headline table of the flagship
# sweep's report (the lines between its "## Throughput" heading and the next
# heading) into README between the "flagship:begin" and "flagship:end"
# markers (scripts/md-splice.sh).  `make run` runs it.
set -euo pipefail
report=${1:-docs/results/flagship/report.md}
readme=${2:-README.md}
table=$(awk '
    /^## Throughput/ { on = 1; next }
    on && /^## / { exit }
    on && /^\|/ { print }
' "$report")
[ -n "$table" ] || { echo "flagship-readme: no headline table in $report" >&2; exit 2; }
printf '%s\n' "$table" | bash "$(dirname "$0")/md-splice.sh" "$readme" flagship
