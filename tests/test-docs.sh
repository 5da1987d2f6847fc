#!/bin/sh
# Generated parts of the docs match what generates them: the key table of
# docs/scenarios.md is 'cmabench help --markdown scenario' (make
# scenarios-doc writes it). Prints TAP.
here=$(dirname "$0")
# shellcheck source=tests/tap.sh
. "$here/tap.sh"
CMABENCH=${CMABENCH:-$here/../cmabench}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT INT TERM

sed -n '/^<!-- keys:/,/^<!-- end of keys -->/p' "$here/../docs/scenarios.md" |
	sed '1d;$d' > "$t/doc"
"$CMABENCH" help --markdown scenario > "$t/table"
check "docs/scenarios.md has a generated key table" [ -s "$t/doc" ]
if ! cmp -s "$t/doc" "$t/table"; then
	diff "$t/doc" "$t/table" | sed 's/^/# /' | head -n 20
	notok "docs/scenarios.md's key table is the key table's (make scenarios-doc)"
else
	ok "docs/scenarios.md's key table is the key table's (make scenarios-doc)"
fi
# shellcheck disable=SC2016 # backquotes of Markdown, not a command
check "every key of the table is in the doc (arch among them)" grep -q '^| `arch` |' "$t/doc"
