#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# check-spdx.sh [--fix] - every source file git tracks carries the project's
# license line, "SPDX-License-Identifier: Apache-2.0" (LICENSE at the root),
# in its first three lines.  --fix adds the line where it is missing (after a
# shebang) in the file's comment style, or rewrites another identifier.
# Source files: C, C++, SystemVerilog, SystemRDL, Python, shell, make, INI,
# TOML, requirements.txt and .ci/run; not docs/, not tests/corpus/ (fuzz
# inputs).  Exit 1 naming each file without it.
set -u
cd "$(dirname "$0")/.." || exit 2
id="SPDX-License-Identifier: Apache-2.0"
fix=0; [ "${1:-}" = --fix ] && fix=1
bad=0
while IFS= read -r f; do
    case "$f" in
        docs/*|tests/corpus/*) continue ;;
        *.c|*.h) style='/* %s */' ;;
        *.cpp|*.sv|*.rdl) style='// %s' ;;
        *.ini) style='; %s' ;;
        *.py|*.sh|*.mk|*.toml|*/requirements.txt|Makefile|.ci/run|.gitignore) style='# %s' ;;
        *) continue ;;
    esac
    head -n 3 "$f" | grep -q "$id" && continue
    if [ "$fix" = 0 ]; then
        echo "check-spdx: $f lacks \"$id\" in its first three lines"
        bad=1; continue
    fi
    line=$(printf "$style" "$id")
    if head -n 3 "$f" | grep -q "SPDX-License-Identifier:"; then
        sed -i '1,3s|SPDX-License-Identifier: [A-Za-z0-9.+-]*|'"$id"'|' "$f"
    elif head -n 1 "$f" | grep -q '^#!'; then
        sed -i '1a\'"$line" "$f"
    else
        sed -i '1i\'"$line" "$f"
    fi
done < <(git ls-files)
[ "$bad" = 0 ] && [ "$fix" = 0 ] && echo "check-spdx: every source file carries \"$id\""
exit "$bad"
