#!/bin/sh
# config-check.sh DOTCONFIG SRCTREE FRAGMENT...: every symbol a fragment
# asks for must have survived olddefconfig.  Names every one that did not.
# A symbol from config/series.config that the tree does not define at all
# is dropped with a note (the base tree lacks the series' own symbols).
set -eu
. "$(dirname "$0")/../lib.sh"
dotconfig=$1
src=$2
shift 2
[ -r "$dotconfig" ] || die "no config at $dotconfig"
missing=
wanted=$(mktemp)
trap 'rm -f "$wanted" "$wanted.last"' EXIT
# What each symbol should be: the last fragment that names it wins, as in
# merge_config.sh.
for frag in "$@"; do
	while IFS= read -r line; do
		case $line in
		CONFIG_*=*) sym=${line%%=*} ;;
		"# CONFIG_"*" is not set") sym=${line#\# }; sym=${sym%% *} ;;
		*) continue ;;
		esac
		printf '%s\t%s\t%s\n' "$sym" "${frag##*/}" "$line" >>"$wanted"
	done <"$frag"
done
# tac puts the last mention first; sort -s -u keeps that one per symbol.
tac "$wanted" | sort -s -u -t "$(printf '\t')" -k1,1 >"$wanted.last"
while IFS="$(printf '\t')" read -r sym fragname line; do
	if [ "$fragname" = series.config ] &&
		! grep -rqs --include='Kconfig*' -x "config ${sym#CONFIG_}" "$src"; then
		say "note: $sym is not defined in this tree (series not applied); not required"
		continue
	fi
	case $line in
	*"is not set")
		if grep -q "^$sym=" "$dotconfig"; then
			missing="$missing $sym(should be unset)"
		fi ;;
	*)
		if ! grep -qx -- "$line" "$dotconfig"; then
			missing="$missing $sym(wanted ${line#*=}, got $(sed -n "s/^$sym=//p" "$dotconfig" | grep . || echo unset))"
		fi ;;
	esac
done <"$wanted.last"
[ -z "$missing" ] || die "config symbols lost after olddefconfig:$missing"
