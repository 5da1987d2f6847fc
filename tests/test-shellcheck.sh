#!/bin/sh
# Shell under the standard of C (issue 43): every shell script we ship
# passes shellcheck (following what it sources), and every finding that is
# disabled says why on its line. SKIP where shellcheck is not installed
# (scripts/install-deps installs it). Prints TAP.
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
# shellcheck source=tests/tap.sh
. "$here/tap.sh"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT INT TERM
cd "$top" || exit 1

# The scripts: a sh or bash shebang, or a 'shellcheck shell=' directive
# (the sourced ones), under the folders we ship; nothing generated.
find .ci autogen.sh scripts tests workloads -type f ! -name '*.c' ! -name '*.h' \
	! -name '*.o' ! -name '*.log' ! -name '*.trs' 2>/dev/null | sort |
	while IFS= read -r f; do
		case $(head -n 1 "$f" 2>/dev/null) in
		'#!'*/sh* | '#!'*bash*) echo "${f#./}" ;;
		*) grep -q '^# shellcheck shell=' "$f" 2>/dev/null && echo "${f#./}" ;;
		esac
	done > "$t/scripts"
check "the shipped shell scripts were found ($(wc -l < "$t/scripts"))" [ "$(wc -l < "$t/scripts")" -ge 30 ]

# A disable directive without its reason: "# shellcheck disable=SCnnnn # why".
bare_re='# *shellcheck disable=[A-Z0-9,]*[[:space:]]*$'
reasonless() { grep -n "$bare_re" "$@"; }
# shellcheck disable=SC2016 # a script's text, written as it is
printf '#!/bin/sh\n# shellcheck disable=SC2086\necho $1\n' > "$t/bare.sh"
check "the reason check finds a bare disable directive" grep -q "$bare_re" "$t/bare.sh"
# shellcheck disable=SC2046 # the script list, one path per line, no spaces
if reasonless $(cat "$t/scripts") > "$t/bare"; then
	sed 's/^/# /' "$t/bare"
	notok "every shellcheck disable directive gives its reason ($(wc -l < "$t/bare") do not)"
else
	ok "every shellcheck disable directive gives its reason"
fi

if ! command -v shellcheck > /dev/null 2>&1; then
	ok "# SKIP shellcheck is not installed (scripts/install-deps installs it)"
	exit 0
fi
# shellcheck disable=SC2016 # a script's text, written as it is
printf '#!/bin/sh\nls $1\n' > "$t/unquoted.sh"
check "shellcheck fails on an unquoted expansion (the check can fail)" \
	sh -c "! shellcheck '$t/unquoted.sh' > /dev/null 2>&1"
while IFS= read -r f; do
	if shellcheck -x "$f" > "$t/out" 2>&1; then
		ok "shellcheck: $f"
	else
		sed 's/^/# /' "$t/out" | head -n 20
		notok "shellcheck: $f ($(grep -c '^In ' "$t/out") findings)"
	fi
done < "$t/scripts"
